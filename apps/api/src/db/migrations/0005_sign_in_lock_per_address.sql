-- Failed sign-ins are now counted per account and client address in rate_limit_buckets
-- (modules/auth/sign-in.repo.ts, docs/decisions/010-sign-in-lock.md).
ALTER TABLE "users" DROP COLUMN "failed_login_count";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "locked_until";