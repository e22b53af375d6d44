DROP INDEX "users_role";--> statement-breakpoint
CREATE INDEX "users_role_created" ON "users" USING btree ("role_id","created_at","id");--> statement-breakpoint
-- Substring search over users (GET /api/auth/users?search=) on one trigram index. The expression must
-- stay identical to userSearchText() in src/modules/users/users.repo.ts. PGlite has pg_trgm only when
-- the extension is loaded into it; without it the search still works, by a sequential scan.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  CREATE INDEX IF NOT EXISTS "users_search_trgm" ON "users" USING gin (
    (lower("username" || chr(31) || "email" || chr(31) || coalesce("full_name", '') || chr(31) || coalesce("client", ''))) gin_trgm_ops
  );
EXCEPTION WHEN undefined_file OR insufficient_privilege OR feature_not_supported OR undefined_object THEN
  RAISE NOTICE 'pg_trgm is not available (%): user search runs without an index', SQLERRM;
END
$$;
