import { z } from 'zod';
import { successSchema } from './common.js';
import { gstinMatchesState, optionalGstinSchema, optionalStateCodeSchema } from './invoices.js';
import { messages } from '../messages.js';
import { isStrongPassword } from '../password.js';
import { EMAIL_PATTERN, MOBILE_PATTERN, USERNAME_PATTERN } from './users.js';

/**
 * Profile and company details (docs/product.md, "Profile and company details"). One set of field
 * rules with their messages, used by the profile screen's forms and by the server.
 */

/** Image types a profile picture may be, checked on the server by content. */
export const PROFILE_IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const PROFILE_IMAGE_ACCEPT = '.png,.jpg,.jpeg,.webp';

export const FULL_NAME_MAX = 100;
export const ABOUT_US_MAX = 2000;
export const FOUNDED_IN_MIN = 1800;
/** Indian PIN code: six digits, the first one 1-9. */
export const PINCODE_PATTERN = /^[1-9]\d{5}$/;

function requiredText(message: string, max = 200) {
  return z.string({ error: message }).trim().min(1, message).max(max, messages.company.tooLong);
}

/**
 * PUT /api/auth/profile. The email is shown read-only: it may be sent (old clients send the whole
 * record) but must equal the stored one; it is changed only by support (docs/decisions).
 */
export const profileUpdateBodySchema = z.object({
  fullName: z
    .string({ error: messages.profile.fullNameRequired })
    .trim()
    .min(1, messages.profile.fullNameRequired)
    .max(FULL_NAME_MAX, messages.profile.fullNameTooLong),
  email: z.string().trim().max(254).optional(),
  mobileNo: z
    .string({ error: messages.profile.contactRequired })
    .trim()
    .min(1, messages.profile.contactRequired)
    .regex(MOBILE_PATTERN, messages.users.invalidMobile),
  username: z.string().trim().regex(USERNAME_PATTERN, messages.users.invalidUsername).optional(),
});
export type ProfileUpdateBody = z.input<typeof profileUpdateBodySchema>;

/** The user-information form: the same rules, with the email required. */
export const profileFormSchema = profileUpdateBodySchema.extend({
  email: z.string().trim().min(1, messages.profile.emailRequired),
});
export type ProfileFormValues = z.input<typeof profileFormSchema>;

/** http(s) URL with a dotted host name; shared has neither DOM nor Node types, so no `URL`. */
const HTTP_URL_PATTERN =
  /^https?:\/\/([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+)(?::\d{1,5})?(?:[/?#][^\s]*)?$/i;

/** The host name of an http(s) URL, or null when the text is not one. */
export function httpUrlHost(value: string): string | null {
  const match = HTTP_URL_PATTERN.exec(value);
  return match ? match[1]!.toLowerCase() : null;
}

function hostMatches(host: string, domains: readonly string[]): boolean {
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** An optional social-network URL: empty means none; otherwise an http(s) URL on that network. */
function socialUrl(domains: readonly string[], message: string) {
  return z
    .string()
    .trim()
    .max(500, message)
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => {
      if (v === null) return true;
      const host = httpUrlHost(v);
      return host !== null && hostMatches(host, domains);
    }, message);
}

export function currentYear(): number {
  return new Date().getFullYear();
}

/** The company-details fields, in the order the form shows them (the first failing one is answered). */
export const companyDetailsFieldsSchema = z.object({
  name: requiredText(messages.company.nameRequired),
  email: z
    .string({ error: messages.company.emailRequired })
    .trim()
    .min(1, messages.company.emailRequired)
    .max(254, messages.users.invalidEmail)
    .regex(EMAIL_PATTERN, messages.users.invalidEmail)
    .transform((v) => v.toLowerCase()),
  address: requiredText(messages.company.addressRequired, 500),
  country: requiredText(messages.company.countryRequired, 100),
  state: requiredText(messages.company.stateRequired, 100),
  city: requiredText(messages.company.cityRequired, 100),
  pincode: z
    .string({ error: messages.company.pincodeRequired })
    .trim()
    .min(1, messages.company.pincodeRequired)
    .regex(PINCODE_PATTERN, messages.company.pincodeInvalid),
  industryType: requiredText(messages.company.industryRequired, 100),
  foundedIn: z
    .union([z.number(), z.string().trim()], { error: messages.company.foundedInRequired })
    .refine((v) => v !== '', messages.company.foundedInRequired)
    .transform((v) => (typeof v === 'number' ? v : /^\d{4}$/.test(v) ? Number(v) : Number.NaN))
    .refine(
      (v) => Number.isInteger(v) && v >= FOUNDED_IN_MIN && v <= currentYear(),
      messages.company.foundedInInvalid,
    ),
  websiteUrl: z
    .string({ error: messages.company.websiteRequired })
    .trim()
    .min(1, messages.company.websiteRequired)
    .max(500, messages.company.websiteInvalid)
    .refine((v) => httpUrlHost(v) !== null, messages.company.websiteInvalid),
  linkedinUrl: socialUrl(['linkedin.com'], messages.company.linkedinInvalid),
  instagramUrl: socialUrl(['instagram.com'], messages.company.instagramInvalid),
  facebookUrl: socialUrl(['facebook.com', 'fb.com'], messages.company.facebookInvalid),
  aboutUs: z
    .string()
    .trim()
    .max(ABOUT_US_MAX, messages.company.aboutUsTooLong)
    .nullish()
    .transform((v) => (v ? v : null)),
  /** The buyer's particulars on tax invoices: the state's GST code and, if registered, the GSTIN. */
  gstStateCode: optionalStateCodeSchema,
  gstin: optionalGstinSchema,
});
/** A GSTIN begins with its state's code: the form and the server refuse one that does not. */
const gstinOfItsState: [
  (v: { gstin: string | null; gstStateCode: string | null }) => boolean,
  { path: string[]; message: string },
] = [
  (v) => gstinMatchesState(v.gstin, v.gstStateCode),
  { path: ['gstin'], message: messages.tax.gstinStateMismatch },
];

/** The Company Details form: the fields, and the GSTIN matching the GST state. */
export const companyDetailsFormSchema = companyDetailsFieldsSchema.refine(...gstinOfItsState);

export type CompanyDetailsFormValues = z.input<typeof companyDetailsFieldsSchema>;
export type CompanyDetailsFields = z.output<typeof companyDetailsFieldsSchema>;

/** POST /api/auth/companies: the fields plus the organization, required first. */
export const companyDetailsBodySchema = z
  .object({
    organizationId: z.uuid({
      error: (issue) =>
        issue.input === undefined || issue.input === null || issue.input === ''
          ? messages.profile.organizationIdRequired
          : messages.company.organizationNotFound,
    }),
  })
  .extend(companyDetailsFieldsSchema.shape)
  .refine(...gstinOfItsState);
export type CompanyDetailsBody = z.input<typeof companyDetailsBodySchema>;

export const companyDetailsSchema = z.object({
  organizationId: z.string(),
  name: z.string(),
  email: z.string(),
  address: z.string(),
  country: z.string(),
  state: z.string(),
  city: z.string(),
  pincode: z.string(),
  industryType: z.string(),
  foundedIn: z.number(),
  websiteUrl: z.string(),
  linkedinUrl: z.string().nullable(),
  instagramUrl: z.string().nullable(),
  facebookUrl: z.string().nullable(),
  aboutUs: z.string().nullable(),
  gstStateCode: z.string().nullable(),
  gstin: z.string().nullable(),
  updatedAt: z.string(),
});
export type CompanyDetails = z.infer<typeof companyDetailsSchema>;

/**
 * The GST state and GSTIN given when the organization was onboarded (an organizations import): where
 * the Company Details form starts while the organization has saved none, so a first save keeps them.
 */
export const onboardingTaxParticularsSchema = z.object({
  gstStateCode: z.string().nullable(),
  gstin: z.string().nullable(),
});
export type OnboardingTaxParticulars = z.infer<typeof onboardingTaxParticularsSchema>;

/** GET /api/auth/companies/:organizationId: the details (null while none), and `onboarding` then. */
export const companyAnswerSchema = successSchema(companyDetailsSchema.nullable()).extend({
  onboarding: onboardingTaxParticularsSchema.nullable(),
});

export const organizationIdParamsSchema = z.object({
  organizationId: z.uuid({ error: messages.company.organizationNotFound }),
});

export interface PasswordChangeValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}
export type PasswordChangeField = keyof PasswordChangeValues;

/**
 * The change-password rules in order, one message at a time (docs/product.md, "Sign-in and
 * passwords"). The server checks the same rules (confirm excepted: it is not sent) after verifying
 * the current password.
 */
export function firstPasswordChangeError(
  values: PasswordChangeValues,
): { field: PasswordChangeField; message: string } | null {
  const { currentPassword, newPassword, confirmPassword } = values;
  if (!currentPassword) return { field: 'currentPassword', message: messages.password.currentRequired };
  if (!newPassword) return { field: 'newPassword', message: messages.password.newRequired };
  if (!confirmPassword) return { field: 'confirmPassword', message: messages.password.confirmRequired };
  if (newPassword !== confirmPassword)
    return { field: 'confirmPassword', message: messages.password.mismatch };
  if (newPassword === currentPassword)
    return { field: 'newPassword', message: messages.password.sameAsCurrent };
  if (!isStrongPassword(newPassword)) return { field: 'newPassword', message: messages.password.weak };
  return null;
}
