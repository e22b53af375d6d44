-- A stored file's bytes move to pieces of 256 KiB, one statement each (docs/decisions/022).
CREATE TABLE "stored_file_chunks" (
	"file_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"data" bytea NOT NULL,
	CONSTRAINT "stored_file_chunks_file_id_seq_pk" PRIMARY KEY("file_id","seq")
);
--> statement-breakpoint
-- Uploads are images and PDFs, mostly compressed already: the database stores the pieces as they
-- come (out of line, not compressed) instead of trying pglz on every 256 KiB (decision 022).
ALTER TABLE "stored_file_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "stored_file_chunks" ADD CONSTRAINT "stored_file_chunks_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Files stored whole before this migration are cut the same way (an empty one has no piece).
INSERT INTO "stored_file_chunks" ("file_id", "seq", "data")
SELECT f."id", s.seq, substring(f."data" FROM s.seq * 262144 + 1 FOR 262144)
FROM "stored_files" f
CROSS JOIN LATERAL generate_series(0, (octet_length(f."data") + 262143) / 262144 - 1) AS s(seq);--> statement-breakpoint
ALTER TABLE "stored_files" DROP COLUMN "data";
