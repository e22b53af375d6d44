-- The features and the system roles with their grants are data the code relies on. A migration writes
-- them, not the seed, so that upgrading an existing database brings every change: a feature or a
-- grant added later comes with a migration of its own, which src/db/system-data.test.ts asks for when
-- packages/shared's FEATURES or ADMIN_ROLE_PERMISSIONS change. Running it again changes nothing.
INSERT INTO "features" ("id", "name", "description", "sort_order") VALUES
  ('dashboard', 'Dashboard', 'Home page, stats and activity', 0),
  ('user-management', 'User Management', 'Invite, edit, activate and deactivate users', 1),
  ('role-management', 'Role Management', 'Create and edit roles and their permissions', 2),
  ('organization-management', 'Organization Management', 'Organizations and company details', 3),
  ('subscription-management', 'Subscription Management', 'Subscriptions, payments and interview credits', 4),
  ('position-management', 'Position Management', 'Open job positions for interviews', 5),
  ('support', 'Support', 'Raise and follow support tickets', 6)
ON CONFLICT ("id") DO UPDATE SET
  "name" = EXCLUDED."name", "description" = EXCLUDED."description", "sort_order" = EXCLUDED."sort_order";
--> statement-breakpoint
INSERT INTO "roles" ("name", "is_system")
SELECT v."name", true FROM (VALUES ('super_admin'), ('admin')) AS v("name")
WHERE NOT EXISTS (
  SELECT 1 FROM "roles" r WHERE r."organization_id" IS NULL AND lower(r."name") = v."name"
);
--> statement-breakpoint
INSERT INTO "role_permissions" ("role_id", "feature_id", "scopes")
SELECT r."id", g."feature_id", g."scopes"
FROM (VALUES
  ('super_admin', 'dashboard', ARRAY['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'IMPORT']),
  ('super_admin', 'user-management', ARRAY['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'IMPORT']),
  ('super_admin', 'role-management', ARRAY['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'IMPORT']),
  ('super_admin', 'organization-management', ARRAY['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'IMPORT']),
  ('super_admin', 'subscription-management', ARRAY['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'IMPORT']),
  ('super_admin', 'position-management', ARRAY['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'IMPORT']),
  ('super_admin', 'support', ARRAY['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'IMPORT']),
  ('admin', 'dashboard', ARRAY['READ']),
  ('admin', 'user-management', ARRAY['READ', 'CREATE', 'UPDATE', 'EXPORT']),
  ('admin', 'role-management', ARRAY['READ', 'CREATE', 'UPDATE', 'DELETE']),
  ('admin', 'organization-management', ARRAY['READ', 'UPDATE']),
  ('admin', 'subscription-management', ARRAY['READ', 'CREATE']),
  ('admin', 'position-management', ARRAY['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT']),
  ('admin', 'support', ARRAY['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT'])
) AS g("role_name", "feature_id", "scopes")
JOIN "roles" r ON r."organization_id" IS NULL AND r."name" = g."role_name"
ON CONFLICT ("role_id", "feature_id") DO UPDATE SET "scopes" = EXCLUDED."scopes";
