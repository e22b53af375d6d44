-- Document numbers unique within a financial year whatever the prefixes become (GST Rule 46, review
-- issue 29 item 3; docs/decisions/020). Counted per prefix, not per kind of document: a prefix swapped
-- from invoices to credit notes carries on from the last number it was given.
ALTER TABLE "document_counters" DROP CONSTRAINT "document_counters_series_financial_year_pk";--> statement-breakpoint
DELETE FROM "document_counters";--> statement-breakpoint
ALTER TABLE "document_counters" RENAME COLUMN "series" TO "prefix";--> statement-breakpoint
ALTER TABLE "document_counters" ADD CONSTRAINT "document_counters_prefix_financial_year_pk" PRIMARY KEY("prefix","financial_year");--> statement-breakpoint
-- The counters start from what each prefix has carried, on invoices and credit notes together. The
-- prefix is counted in capitals: "ic" and "IC" are one series.
INSERT INTO "document_counters" ("prefix", "financial_year", "last_number")
  SELECT upper(split_part("number", '/', 1)), "financial_year", max("sequence")
  FROM (
    SELECT "number", "financial_year", "sequence" FROM "invoices"
    UNION ALL
    SELECT "number", "financial_year", "sequence" FROM "credit_notes"
  ) d
  GROUP BY 1, 2;--> statement-breakpoint
-- Two prefixes each count from 000001, so a sequence repeats within a year; the number does not.
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_year_sequence";--> statement-breakpoint
ALTER TABLE "credit_notes" DROP CONSTRAINT "credit_notes_year_sequence";--> statement-breakpoint
-- Every number issued, invoices and credit notes together: the database itself refuses a second
-- document with a number already given (in any case of its letters), whichever code inserts it.
CREATE TABLE "tax_document_numbers" (
	"document_id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"number" text NOT NULL,
	"financial_year" text NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "tax_document_numbers_number" ON "tax_document_numbers" USING btree (upper("number"));--> statement-breakpoint
-- Numbers issued before this migration; a duplicate issued before it cannot be renumbered (documents
-- are immutable), so the earlier document keeps the number's entry.
INSERT INTO "tax_document_numbers" ("document_id", "kind", "number", "financial_year")
  SELECT "id", "kind", "number", "financial_year"
  FROM (
    SELECT "id", 'invoice' AS "kind", "number", "financial_year", "created_at" FROM "invoices"
    UNION ALL
    SELECT "id", 'credit_note', "number", "financial_year", "created_at" FROM "credit_notes"
  ) d
  ORDER BY "created_at"
  ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE FUNCTION "register_tax_document_number"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "tax_document_numbers" ("document_id", "kind", "number", "financial_year")
    VALUES (NEW."id", TG_ARGV[0], NEW."number", NEW."financial_year");
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "invoices_number_registered" AFTER INSERT ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION "register_tax_document_number"('invoice');--> statement-breakpoint
CREATE TRIGGER "credit_notes_number_registered" AFTER INSERT ON "credit_notes"
  FOR EACH ROW EXECUTE FUNCTION "register_tax_document_number"('credit_note');--> statement-breakpoint
CREATE TRIGGER "tax_document_numbers_immutable" BEFORE UPDATE OR DELETE ON "tax_document_numbers"
  FOR EACH ROW EXECUTE FUNCTION "refuse_tax_document_change"();
