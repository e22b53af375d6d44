import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from './constants.js';
import { messages } from './messages.js';

/** The special characters a strong password needs one of, backtick and tilde included. */
export const PASSWORD_SPECIALS = '!@#$%^&*(),.?":{}|<>_-+=[]\\/;\'`~';

export interface PasswordRule {
  id: 'length' | 'upper' | 'lower' | 'digit' | 'special';
  label: string;
  test: (password: string) => boolean;
}

/** The strength rule, one definition for the checklist, the form and the server. */
export const PASSWORD_RULES: readonly PasswordRule[] = [
  {
    id: 'length',
    label: `At least ${PASSWORD_MIN_LENGTH} characters`,
    test: (p) => p.length >= PASSWORD_MIN_LENGTH,
  },
  { id: 'upper', label: 'One uppercase letter', test: (p) => /[A-Z]/.test(p) },
  { id: 'lower', label: 'One lowercase letter', test: (p) => /[a-z]/.test(p) },
  { id: 'digit', label: 'One number', test: (p) => /\d/.test(p) },
  {
    id: 'special',
    label: 'One special character',
    test: (p) => [...p].some((c) => PASSWORD_SPECIALS.includes(c)),
  },
];

export function isStrongPassword(password: string): boolean {
  return PASSWORD_RULES.every((rule) => rule.test(password));
}

export const strongPasswordSchema = z
  .string()
  .max(200)
  .refine(isStrongPassword, { message: messages.password.weak });
