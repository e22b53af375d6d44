-- A card mandate registered through Razorpay Checkout: the customer at Razorpay whose token is debited,
-- and the authorization order in progress (its payment confirms the mandate once, by verify or webhook).
ALTER TABLE "billing_plans" ADD COLUMN "mandate_customer_id" text;--> statement-breakpoint
ALTER TABLE "billing_plans" ADD COLUMN "mandate_order_id" text;
--> statement-breakpoint
-- A debit being asked of the provider, or awaiting its answer, is not asked again by another process
-- before this time (the receipt then finds the same debit).
ALTER TABLE "renewals" ADD COLUMN "charge_lease_until" timestamp with time zone;
