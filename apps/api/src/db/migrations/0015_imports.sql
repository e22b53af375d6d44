-- Bulk import with a dry run (docs/decisions/036): each uploaded file and its rows, with what the dry
-- run found and what the commit did.
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL REFERENCES "organizations"("id"),
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"created_by" uuid,
	"committed_by" uuid,
	"on_existing" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"status" text NOT NULL,
	"total_rows" integer NOT NULL,
	"to_create" integer NOT NULL,
	"to_update" integer NOT NULL,
	"unchanged" integer NOT NULL,
	"error_rows" integer NOT NULL,
	"created_count" integer DEFAULT 0 NOT NULL,
	"updated_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"committed_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "imports_org_created" ON "imports" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "imports_created" ON "imports" USING btree ("created_at");--> statement-breakpoint
CREATE TABLE "import_rows" (
	"import_id" uuid NOT NULL REFERENCES "imports"("id") ON DELETE cascade,
	"row_number" integer NOT NULL,
	"values" jsonb NOT NULL,
	"outcome" text NOT NULL,
	"errors" jsonb NOT NULL,
	"user_id" uuid,
	"result" text,
	"result_error" text,
	CONSTRAINT "import_rows_import_id_row_number_pk" PRIMARY KEY("import_id","row_number")
);
--> statement-breakpoint
-- The rows a commit has still to take: what its job reads batch after batch.
CREATE INDEX "import_rows_pending" ON "import_rows" USING btree ("import_id","row_number")
	WHERE "result" is null and "outcome" in ('to_create', 'to_update');
