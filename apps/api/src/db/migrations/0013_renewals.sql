-- The monthly cycle (docs/product.md "Renewals"): one plan per organization, one renewal per period.
CREATE TABLE "billing_plans" (
	"organization_id" uuid PRIMARY KEY NOT NULL REFERENCES "organizations"("id"),
	"credits_per_period" integer NOT NULL,
	"price_per_credit_paise" integer NOT NULL,
	"tax_rate_bp" integer NOT NULL,
	"amount_paise" integer NOT NULL,
	"auto_renew" boolean DEFAULT false NOT NULL,
	"collection" text DEFAULT 'manual' NOT NULL,
	"mandate_status" text DEFAULT 'none' NOT NULL,
	"mandate_token" text,
	"mandate_max_paise" integer,
	-- Period k runs from anchor + k months to anchor + k + 1 months (the day kept, or the month's last).
	"anchor_at" timestamp with time zone NOT NULL,
	-- The next period to renew, and when it starts: a run opens it PRE_DEBIT_NOTICE_LEAD_HOURS before.
	"next_period" integer DEFAULT 1 NOT NULL,
	"next_period_start" timestamp with time zone NOT NULL,
	-- active; past_due once a renewal is owed past its period start; suspended after the grace days.
	"status" text DEFAULT 'active' NOT NULL,
	"past_due_since" timestamp with time zone,
	-- Unused credits carried into a renewed period at most (the rest expire); null: none expire.
	"rollover_cap" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "billing_plans_due" ON "billing_plans" ("next_period_start") WHERE "auto_renew";--> statement-breakpoint
-- Organizations onboarded before renewals: a plan from their latest subscription, not renewing until
-- someone turns automatic renewal on.
INSERT INTO "billing_plans" ("organization_id", "credits_per_period", "price_per_credit_paise", "tax_rate_bp",
	"amount_paise", "anchor_at", "next_period_start")
SELECT DISTINCT ON ("organization_id") "organization_id", "total_interview_credits",
	"interview_credits_price_paise", "tax_rate_bp", "grand_total_amount_paise", "valid_from", "valid_until"
FROM "subscriptions" ORDER BY "organization_id", "valid_from" DESC;--> statement-breakpoint
CREATE TABLE "renewals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL REFERENCES "organizations"("id"),
	"period" integer NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"credits" integer NOT NULL,
	"price_per_credit_paise" integer NOT NULL,
	"tax_rate_bp" integer NOT NULL,
	"amount_paise" integer NOT NULL,
	"collection" text NOT NULL,
	"status" text NOT NULL,
	"notice_sent_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"payment_id" uuid REFERENCES "payments"("id"),
	"subscription_id" uuid REFERENCES "subscriptions"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- One renewal per organization and period: however many runs race, a period is opened (and charged) once.
CREATE UNIQUE INDEX "renewals_org_period" ON "renewals" ("organization_id", "period");--> statement-breakpoint
CREATE INDEX "renewals_open" ON "renewals" ("next_attempt_at") WHERE "status" IN ('notified', 'failed');--> statement-breakpoint
-- An online payment of a renewal (approval above the silent limit, or after a declined debit).
ALTER TABLE "payment_orders" ADD COLUMN "renewal_id" uuid REFERENCES "renewals"("id");--> statement-breakpoint
-- An upgrade paid now: the plan's new credits a month (the order's credits are the period's prorated share).
ALTER TABLE "payment_orders" ADD COLUMN "upgrade_to_credits" integer;--> statement-breakpoint
-- The sandbox provider's own record of mandate charges: a charge asked again with its receipt answers
-- the first outcome, as Razorpay finds an order by its receipt.
CREATE TABLE "sandbox_mandate_charges" (
	"receipt" text PRIMARY KEY NOT NULL,
	"provider_payment_id" text,
	"amount_paise" integer NOT NULL,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
