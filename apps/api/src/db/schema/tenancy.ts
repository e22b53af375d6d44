import { boolean, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';

/** A tenant. The platform organization holds the super administrators. */
export const organizations = pgTable('organizations', {
  id: id(),
  name: text('name').notNull(),
  isPlatform: boolean('is_platform').notNull().default(false),
  /**
   * The GST state and GSTIN given at onboarding (migration 0017): the buyer's particulars on its tax
   * invoices until the company saves Company Details, whose own then win (findBuyerParticulars).
   */
  gstStateCode: text('gst_state_code'),
  gstin: text('gstin'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const companyDetails = pgTable('company_details', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  email: text('email').notNull(),
  address: text('address').notNull(),
  country: text('country').notNull(),
  state: text('state').notNull(),
  city: text('city').notNull(),
  pincode: text('pincode').notNull(),
  industryType: text('industry_type').notNull(),
  foundedIn: integer('founded_in').notNull(),
  websiteUrl: text('website_url').notNull(),
  linkedinUrl: text('linkedin_url'),
  instagramUrl: text('instagram_url'),
  facebookUrl: text('facebook_url'),
  aboutUs: text('about_us'),
  /** The buyer's particulars on tax invoices. */
  gstStateCode: text('gst_state_code'),
  gstin: text('gstin'),
  updatedBy: uuid('updated_by'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
