import type { z } from 'zod';
import {
  computeAmounts,
  DEFAULT_GST_PERCENT,
  gstinMatchesState,
  messages,
  onboardingBodySchema,
  optionalGstinSchema,
  optionalStateCodeSchema,
  ORGANIZATION_IMPORT_COLUMNS,
  percentToBasisPoints,
  rupeesToPaise,
  type Amounts,
  type ImportOnExisting,
  type ImportRowOutcome,
  type OrganizationImportColumn,
} from '@portal/shared';
import { RowErrors, type ImportRow } from './import-columns.js';
import type { CheckedRow } from './import-kind.js';

/** An organizations row's values by column. */
export type OrganizationRowValues = Record<OrganizationImportColumn, string>;

/** Other headers people give these columns (squashed: lower case, no spaces, underscores or hyphens). */
export const ORGANIZATION_ALIASES: Record<OrganizationImportColumn, string[]> = {
  company: ['company', 'companyname', 'organization', 'organisation', 'organizationname', 'client'],
  username: ['adminusername', 'username', 'user', 'login'],
  email: ['adminemail', 'adminemailaddress', 'email', 'emailaddress', 'mail'],
  mobile: ['adminmobile', 'adminmobileno', 'mobile', 'mobileno', 'mobilenumber', 'phone'],
  credits: ['credits', 'interviewcredits', 'creditspermonth', 'monthlycredits'],
  pricePerCredit: ['pricepercredit', 'price', 'creditprice', 'pricepercreditrs'],
  gstRate: ['gst', 'gstrate', 'gstpercent', 'gstpercentage', 'gst(%)'],
  autoRenew: ['autorenewal', 'autorenew', 'renewautomatically'],
  gstState: ['gststate', 'gststatecode', 'statecode', 'placeofsupply'],
  gstin: ['gstin', 'gstno', 'gstnumber'],
};

const RULES = Object.fromEntries(ORGANIZATION_IMPORT_COLUMNS.map((c) => [c.key, c.rule])) as Record<
  OrganizationImportColumn,
  string
>;

/** Where each field of the onboarding request comes from; the amounts follow from the credits. */
const SCHEMA_FIELD: Record<string, OrganizationImportColumn> = {
  'user.username': 'username',
  'user.email': 'email',
  'user.mobileNo': 'mobile',
  'user.client': 'company',
  'subscription.totalInterviewCredits': 'credits',
  'subscription.interviewCreditsPricePaise': 'pricePerCredit',
  'subscription.taxRateBp': 'gstRate',
  subscription: 'credits',
  autoRenew: 'autoRenew',
};

const NUMBER_COLUMNS = new Set<OrganizationImportColumn>(['credits', 'pricePerCredit', 'gstRate']);

/** Any uuid: the dry run's stand-in for the new organization's id, made at the commit as the Invite screen makes it. */
export const NEW_ORGANIZATION_STAND_IN = '00000000-0000-4000-8000-000000000000';

const WHOLE = /^\d+$/;
/** Rupees with up to two decimals, as the subscription screen takes them. */
const RUPEES = /^\d+(\.\d{1,2})?$/;
const YES = new Set(['yes', 'y', 'true']);
const NO = new Set(['no', 'n', 'false']);

export type OnboardingRequest = z.output<typeof onboardingBodySchema>;

/** The company's GST state and GSTIN as the Company Details form reads them (empty: null). */
export interface RowTaxParticulars {
  gstStateCode: string | null;
  gstin: string | null;
}

/**
 * A row read as the Invite Admin and Subscription screens send it: the onboarding request (checked
 * with `onboardingBodySchema`, the amounts computed here with the shared `computeAmounts`, never read
 * from the file) and the company's GST particulars (checked with the Company Details form's schemas).
 * `request` is null when a column has an error.
 */
export function readOrganizationRow(
  values: OrganizationRowValues,
  organizationId: string,
): { request: OnboardingRequest | null; tax: RowTaxParticulars; errors: RowErrors } {
  const errors = new RowErrors(ORGANIZATION_IMPORT_COLUMNS);
  errors.checkText(values, ORGANIZATION_IMPORT_COLUMNS);
  const text = (key: OrganizationImportColumn) => (errors.has(key) ? '' : values[key].trim());

  const credits = text('credits');
  if (!WHOLE.test(credits)) errors.fail('credits', RULES.credits);
  const price = text('pricePerCredit');
  if (!RUPEES.test(price)) errors.fail('pricePerCredit', RULES.pricePerCredit);
  // "18", "18.5" or "18 %"; empty is the screen's default.
  const gst = text('gstRate').replace(/\s*%$/, '') || String(DEFAULT_GST_PERCENT);
  if (!RUPEES.test(gst) || Number(gst) > 100) errors.fail('gstRate', RULES.gstRate);
  const renew = text('autoRenew').toLowerCase();
  if (renew && !YES.has(renew) && !NO.has(renew)) errors.fail('autoRenew', RULES.autoRenew);

  const terms = {
    credits: Number(credits),
    pricePerCreditPaise: rupeesToPaise(Number(price)),
    taxRateBp: percentToBasisPoints(Number(gst)),
  };
  let amounts: Amounts;
  try {
    amounts = computeAmounts(terms);
  } catch {
    // Out of range: the schema below says which field.
    amounts = {
      subTotalPaise: 0,
      discountAmountPaise: 0,
      totalAmountPaise: 0,
      taxAmountPaise: 0,
      grandTotalPaise: 0,
    };
  }
  const parsed = onboardingBodySchema.safeParse({
    user: {
      username: values.username,
      email: values.email,
      mobileNo: values.mobile,
      client: values.company,
      organizationId,
    },
    subscription: {
      totalInterviewCredits: terms.credits,
      interviewCreditsPricePaise: terms.pricePerCreditPaise,
      taxRateBp: terms.taxRateBp,
      subTotalPaise: amounts.subTotalPaise,
      discountAmountPaise: amounts.discountAmountPaise,
      totalAmountPaise: amounts.totalAmountPaise,
      taxAmountPaise: amounts.taxAmountPaise,
      grandTotalAmountPaise: amounts.grandTotalPaise,
    },
    autoRenew: YES.has(renew),
  });
  // Numbers out of the subscription's range: the column's rule names the range (the schema has no text).
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => {
      const column = SCHEMA_FIELD[issue.path.join('.')];
      return column && NUMBER_COLUMNS.has(column) ? { ...issue, message: RULES[column] } : issue;
    });
    errors.addIssues(issues, SCHEMA_FIELD);
  }

  // A state code written as a number loses its leading zero in a spreadsheet (07 becomes 7).
  const stateText = text('gstState');
  const state = optionalStateCodeSchema.safeParse(/^\d$/.test(stateText) ? `0${stateText}` : stateText);
  if (!state.success) errors.fail('gstState', state.error.issues[0]!.message);
  const gstin = optionalGstinSchema.safeParse(text('gstin'));
  if (!gstin.success) errors.fail('gstin', gstin.error.issues[0]!.message);
  const tax: RowTaxParticulars = {
    gstStateCode: state.success ? state.data : null,
    gstin: gstin.success ? gstin.data : null,
  };
  if (state.success && gstin.success && !gstinMatchesState(tax.gstin, tax.gstStateCode)) {
    errors.fail('gstin', messages.tax.gstinStateMismatch);
  }
  return { request: errors.any || !parsed.success ? null : parsed.data, tax, errors };
}

/** A user of the portal a row's admin email or username matched. */
export interface ExistingUser {
  id: string;
  username: string;
  email: string;
  mobileNo: string | null;
  organizationId: string;
}

/**
 * An organization a row may stand for, with its GST particulars: its Company Details' once it has
 * saved them, else those given at its onboarding (as invoices take them).
 */
export interface ExistingOrganization {
  id: string;
  name: string;
  isPlatform: boolean;
  tax: RowTaxParticulars;
}

/** What every row is checked against. */
export interface OrganizationRowContext {
  /** The importer's tenant scope: null for the super administrator, who may match any tenant. */
  scope: string | null;
  importerOrganizationId: string;
  onExisting: ImportOnExisting;
  matchBy: 'email' | 'company';
  organizationsById: Map<string, ExistingOrganization>;
  /** Lowercase name → the organizations of that name, oldest first. */
  organizationsByName: Map<string, ExistingOrganization[]>;
  byEmail: Map<string, ExistingUser>;
  byUsername: Map<string, ExistingUser>;
  /** Earlier rows' values (lowercase) of the unique columns → their row numbers. */
  seen: Record<'email' | 'username' | 'company', Map<string, number>>;
}

export interface CheckedOrganizationRow extends CheckedRow {
  /** An identity held in another organization: counted toward the hourly bound (decision 023). */
  foreignConflict: boolean;
}

/** An organization the importer may find as an existing onboarding: a tenant, and one within its scope. */
function matchable(org: ExistingOrganization | undefined, ctx: OrganizationRowContext) {
  return org !== undefined && !org.isPlatform && (ctx.scope === null || org.id === ctx.scope);
}

export const sameTax = (a: RowTaxParticulars, b: RowTaxParticulars) =>
  a.gstStateCode === b.gstStateCode && a.gstin === b.gstin;

/**
 * One row's checks: the screens' schemas and messages (readOrganizationRow), repeats of an earlier
 * row (email and username always, the company too when rows are matched by it), and the portal. A
 * row stands for an organization already onboarded when its admin's email is a user of a tenant of
 * the row's company name (matchBy email), or a tenant has the row's company name (matchBy company,
 * case-insensitive; the one whose user has the row's email, else the oldest): that row is unchanged,
 * or to_update with onExisting 'update' when the admin's username or mobile differ, or the GST state
 * or GSTIN differ from those it has (its Company Details', else its onboarding's). A username or email
 * held by anyone else is `messages.users.duplicate`, as the screens answer.
 */
export function checkOrganizationRow(row: ImportRow, ctx: OrganizationRowContext): CheckedOrganizationRow {
  const values = row.values as OrganizationRowValues;
  const { tax, errors } = readOrganizationRow(values, NEW_ORGANIZATION_STAND_IN);
  const email = values.email.trim().toLowerCase();
  const username = values.username.trim().toLowerCase();
  const company = values.company.trim().toLowerCase();
  // A value already refused is not remembered: a later row repeating it is judged on its own.
  const unique: ('email' | 'username' | 'company')[] = ['email', 'username'];
  if (ctx.matchBy === 'company') unique.push('company');
  const typed = { email, username, company };
  for (const column of unique) {
    if (!errors.has(column)) errors.checkRepeat(column, typed[column], ctx.seen[column], row.rowNumber);
  }

  const emailHolder = errors.has('email') ? undefined : ctx.byEmail.get(email);
  const usernameHolder = errors.has('username') ? undefined : ctx.byUsername.get(username);
  let foreignConflict = false;
  const heldElsewhere = (column: 'email' | 'username', holder: ExistingUser) => {
    errors.fail(column, messages.users.duplicate);
    foreignConflict ||= holder.organizationId !== ctx.importerOrganizationId;
  };

  let matched: ExistingOrganization | undefined;
  let admin: ExistingUser | undefined;
  if (ctx.matchBy === 'email') {
    const org = emailHolder && ctx.organizationsById.get(emailHolder.organizationId);
    if (emailHolder && matchable(org, ctx) && !errors.has('company') && org!.name.toLowerCase() === company) {
      matched = org;
      admin = emailHolder;
    } else if (emailHolder) {
      heldElsewhere('email', emailHolder);
    }
  } else {
    const named = errors.has('company')
      ? []
      : (ctx.organizationsByName.get(company) ?? []).filter((org) => matchable(org, ctx));
    matched = named.find((org) => org.id === emailHolder?.organizationId) ?? named[0];
    if (emailHolder && emailHolder.organizationId !== matched?.id) heldElsewhere('email', emailHolder);
    else if (emailHolder) admin = emailHolder;
    // An existing organization's admin is named by an email it has; an email is never changed.
    else if (matched && !errors.has('email')) errors.fail('email', messages.users.emailLocked);
  }

  let outcome: ImportRowOutcome = 'to_create';
  if (matched) {
    const adminChanges =
      admin !== undefined &&
      (admin.username !== values.username.trim() || (admin.mobileNo ?? '') !== values.mobile.trim());
    const taxChanges = !sameTax(matched.tax, tax);
    outcome = ctx.onExisting === 'update' && (adminChanges || taxChanges) ? 'to_update' : 'unchanged';
    if (outcome === 'to_update' && usernameHolder && usernameHolder.id !== admin?.id) {
      heldElsewhere('username', usernameHolder);
    }
  } else if (usernameHolder) {
    heldElsewhere('username', usernameHolder);
  }
  return {
    outcome: errors.any ? 'error' : outcome,
    errors: errors.errors,
    recordId: matched?.id ?? null,
    foreignConflict,
  };
}
