-- Imports of users, positions and organizations (docs/decisions/036): a row's record is a user, a
-- position or an organization's admin, and an import names the column rows are matched by.
ALTER TABLE "import_rows" RENAME COLUMN "user_id" TO "record_id";
--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "match_by" text DEFAULT 'email' NOT NULL;
--> statement-breakpoint
-- The admin system role imports its own team and positions (packages/shared ADMIN_ROLE_PERMISSIONS).
UPDATE "role_permissions" rp SET "scopes" = g."scopes"
FROM (VALUES
  ('user-management', ARRAY['READ', 'CREATE', 'UPDATE', 'EXPORT', 'IMPORT']),
  ('position-management', ARRAY['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'IMPORT'])
) AS g("feature_id", "scopes"), "roles" r
WHERE r."id" = rp."role_id" AND r."organization_id" IS NULL AND r."name" = 'admin'
  AND rp."feature_id" = g."feature_id";
