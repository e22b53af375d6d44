import { eq, sql } from 'drizzle-orm';
import type { CompanyDetails, CompanyDetailsFields } from '@portal/shared';
import type { Db } from '../../db/client.js';
import { companyDetails } from '../../db/schema/index.js';

function toDto(row: typeof companyDetails.$inferSelect): CompanyDetails {
  return {
    organizationId: row.organizationId,
    name: row.name,
    email: row.email,
    address: row.address,
    country: row.country,
    state: row.state,
    city: row.city,
    pincode: row.pincode,
    industryType: row.industryType,
    foundedIn: row.foundedIn,
    websiteUrl: row.websiteUrl,
    linkedinUrl: row.linkedinUrl,
    instagramUrl: row.instagramUrl,
    facebookUrl: row.facebookUrl,
    aboutUs: row.aboutUs,
    gstStateCode: row.gstStateCode,
    gstin: row.gstin,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function findCompanyDetails(db: Db, organizationId: string): Promise<CompanyDetails | null> {
  const [row] = await db
    .select()
    .from(companyDetails)
    .where(eq(companyDetails.organizationId, organizationId))
    .limit(1);
  return row ? toDto(row) : null;
}

/** The GST state and GSTIN on the company details of these organizations (those that saved theirs). */
export async function findTaxParticulars(db: Db, organizationIds: readonly string[]) {
  return db
    .select({
      organizationId: companyDetails.organizationId,
      gstStateCode: companyDetails.gstStateCode,
      gstin: companyDetails.gstin,
    })
    .from(companyDetails)
    .where(sql`${companyDetails.organizationId} = any(${sql.param([...organizationIds])}::uuid[])`);
}

/** Inserts or replaces the organization's one record; tells which it was. */
export async function upsertCompanyDetails(
  db: Db,
  organizationId: string,
  fields: CompanyDetailsFields,
  updatedBy: string,
): Promise<{ details: CompanyDetails; created: boolean }> {
  const existed = await db
    .select({ id: companyDetails.organizationId })
    .from(companyDetails)
    .where(eq(companyDetails.organizationId, organizationId))
    .for('update');
  const values = { ...fields, updatedBy, updatedAt: new Date() };
  const [row] = await db
    .insert(companyDetails)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({ target: companyDetails.organizationId, set: values })
    .returning();
  return { details: toDto(row!), created: existed.length === 0 };
}
