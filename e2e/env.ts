import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The portal the browser tests run against: a fresh data folder and known super administrator. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const SUPER_ADMIN = { email: 'owner@portal.test', password: 'Owner-Passw0rd!' };
/**
 * More super administrators, made by global setup: each sign-in needs an unused authenticator code,
 * one per account and 30-second step, so the tests that need any super administrator take turns.
 */
export const SUPER_ADMIN_POOL_PREFIX = 'root-pool-';
export const SUPER_ADMIN_POOL_SIZE = 6;

// Set once in the main process; workers inherit the environment and so share the folders. The process
// that made the folder removes it as it exits, after Playwright has stopped the portal.
if (!process.env.E2E_DATA_DIR) {
  const made = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  process.env.E2E_DATA_DIR = made;
  process.on('exit', () => rmSync(made, { recursive: true, force: true }));
}
export const DATA_DIR = process.env.E2E_DATA_DIR;
/** The portal writes every email here as JSON (SMTP_URL=file://...), so tests can follow links. */
export const MAIL_DIR = join(DATA_DIR, 'mail');
