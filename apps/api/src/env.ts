import { z } from 'zod';

/** Configuration, parsed once. Nothing else reads process.env. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Public address of the portal, used in email links and the Origin check. */
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  SESSION_SECRET: z.string().min(32).optional(),
  /** smtp(s)://… sends mail; file:///folder writes each mail as JSON there (development, tests). */
  SMTP_URL: z.string().optional(),
  /** Sign-in attempts allowed per client address per 15 minutes. */
  LOGIN_ATTEMPTS_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  MAIL_FROM: z.string().default('Interview Credits Portal <no-reply@localhost>'),
  PRODUCT_URL: z.url().default('https://interview.example.com'),
  CHATBOT_URL: z.url().default('https://interview.example.com/chatbot'),
  RAZORPAY_KEY_ID: z.string().optional(),
  RAZORPAY_KEY_SECRET: z.string().optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
