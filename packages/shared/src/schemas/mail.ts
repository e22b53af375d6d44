import { z } from 'zod';
import { listQuerySchema } from './common.js';
import { emailSchema } from './users.js';

/** What a mail is about: the undelivered-mail screen shows it, and resending keeps it. */
export const MAIL_KINDS = [
  'invitation',
  'password_reset',
  'new_device',
  'code_failures',
  'two_factor_reset',
  'tax_invoice',
  'credit_note',
  'renewal_notice',
] as const;
export const mailKindSchema = z.enum(MAIL_KINDS);
export type MailKind = z.infer<typeof mailKindSchema>;

export const MAIL_KIND_LABELS: Record<MailKind, string> = {
  invitation: 'Invitation',
  password_reset: 'Password reset',
  new_device: 'New device sign-in',
  code_failures: 'Sign-in codes refused',
  two_factor_reset: 'Two-factor reset',
  tax_invoice: 'Tax invoice',
  credit_note: 'Credit note',
  renewal_notice: 'Renewal notice',
};

/** A mail the portal gave up on: the SMTP server refused it for good, or kept failing past the retries. */
export const undeliveredMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  kind: mailKindSchema,
  /** The organization of the recipient, when the mail concerns one. */
  organizationName: z.string().nullable(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  /** When the portal stopped trying. */
  gaveUpAt: z.string(),
});
export type UndeliveredMail = z.infer<typeof undeliveredMailSchema>;

export const undeliveredMailQuerySchema = listQuerySchema.pick({ page: true, pageSize: true, search: true });
export type UndeliveredMailQuery = z.infer<typeof undeliveredMailQuerySchema>;

/** One try at handing a mail to the SMTP server, as the delivery job recorded it. */
export const mailAttemptSchema = z.object({
  attemptedAt: z.string(),
  outcome: z.enum(['sent', 'temporary_failure', 'permanent_failure']),
  /** The SMTP reply code (421, 550…), or null when no answer came (refused connection, timeout). */
  smtpCode: z.number().nullable(),
  error: z.string().nullable(),
});
export type MailAttempt = z.infer<typeof mailAttemptSchema>;

export const mailAttemptsSchema = z.array(mailAttemptSchema);

/** Send an undelivered mail again, to its address or to a corrected one. */
export const resendMailSchema = z.object({ to: emailSchema.optional() });
export type ResendMailInput = z.infer<typeof resendMailSchema>;
