-- Durable background work (docs/decisions/026). Mail is delivered by a job: each outbox entry says
-- what it is about and whom it concerns, and every try at the SMTP server is kept.
ALTER TABLE "email_outbox" ADD COLUMN "kind" text;--> statement-breakpoint
UPDATE "email_outbox" SET "kind" = CASE
  WHEN "subject" = 'Reset your password' THEN 'password_reset'
  WHEN "subject" = 'New sign-in to your account' THEN 'new_device'
  WHEN "subject" = 'Wrong sign-in codes for your account' THEN 'code_failures'
  WHEN "subject" = 'Your two-factor sign-in was reset' THEN 'two_factor_reset'
  WHEN "subject" LIKE 'Credit note %' THEN 'credit_note'
  WHEN "subject" LIKE 'Your payment receipt and tax invoice%' THEN 'tax_invoice'
  ELSE 'invitation'
END;--> statement-breakpoint
ALTER TABLE "email_outbox" ALTER COLUMN "kind" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "organization_id" uuid REFERENCES "organizations"("id");--> statement-breakpoint
-- What wrote the mail when that may run twice (a job retried after its work committed): one mail per key.
ALTER TABLE "email_outbox" ADD COLUMN "source_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "email_outbox_source_key" ON "email_outbox" ("source_key");--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "gave_up_at" timestamp with time zone;--> statement-breakpoint
-- Before this release a refused mail was never tried again, and one pending when its process stopped
-- was lost: both are undelivered now, for the super administrator to send again.
UPDATE "email_outbox" SET "status" = 'undelivered', "gave_up_at" = now(),
  "last_error" = coalesce("last_error", 'Not delivered before the upgrade to retried delivery')
  WHERE "status" IN ('failed', 'pending');--> statement-breakpoint
CREATE INDEX "email_outbox_undelivered" ON "email_outbox" ("gave_up_at") WHERE "status" = 'undelivered';--> statement-breakpoint
CREATE TABLE "email_delivery_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"outbox_id" uuid NOT NULL REFERENCES "email_outbox"("id") ON DELETE CASCADE,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	"smtp_code" integer,
	"error" text
);--> statement-breakpoint
CREATE INDEX "email_delivery_attempts_outbox" ON "email_delivery_attempts" ("outbox_id", "attempted_at");--> statement-breakpoint
-- One row per scheduled job and slot: a slot runs once across every process, and its outcome stays.
CREATE TABLE "scheduled_runs" (
	"job" text NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text NOT NULL,
	"result" jsonb,
	"error" text,
	CONSTRAINT "scheduled_runs_job_slot_pk" PRIMARY KEY("job","slot")
);
