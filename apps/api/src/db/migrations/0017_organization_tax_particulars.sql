-- The GST state and GSTIN given when an organization is onboarded (the organizations import, issue 34):
-- the buyer's particulars on its tax invoices until the company saves Company Details, which then win.
ALTER TABLE "organizations" ADD COLUMN "gst_state_code" text;
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "gstin" text;
