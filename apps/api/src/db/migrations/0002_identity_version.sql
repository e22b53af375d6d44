CREATE TABLE "data_versions" (
	"name" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- One version for everything API processes cache about who is who (docs/decisions/007): users (the
-- columns the list filters and searches on, and what a session needs), roles, role permissions,
-- features, organizations (platform flag) and subscriptions. A cached value is used only when the
-- version read in the same statement as the request's data equals the version it was cached at, so a
-- cache never outlives a committed change, in any process.
INSERT INTO "data_versions" ("name", "version") VALUES ('identity', 1);--> statement-breakpoint
-- Deferred to commit and done once per transaction: the version row is locked only while the
-- transaction commits, after every other lock it takes, so writers of these tables cannot deadlock on it.
CREATE FUNCTION "bump_identity_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('portal.identity_version_bumped', true), '') <> 'on' THEN
    UPDATE "data_versions" SET "version" = "version" + 1 WHERE "name" = 'identity';
    PERFORM set_config('portal.identity_version_bumped', 'on', true);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "users_identity_version" AFTER INSERT OR DELETE ON "users"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "users_identity_version_update" AFTER UPDATE ON "users"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD."organization_id", OLD."role_id", OLD."is_active", OLD."username", OLD."email", OLD."full_name", OLD."client")
    IS DISTINCT FROM (NEW."organization_id", NEW."role_id", NEW."is_active", NEW."username", NEW."email", NEW."full_name", NEW."client"))
  EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "roles_identity_version" AFTER INSERT OR UPDATE OR DELETE ON "roles"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "role_permissions_identity_version" AFTER INSERT OR UPDATE OR DELETE ON "role_permissions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "features_identity_version" AFTER INSERT OR UPDATE OR DELETE ON "features"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "organizations_identity_version" AFTER INSERT OR DELETE ON "organizations"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "organizations_identity_version_update" AFTER UPDATE ON "organizations"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD."is_platform" IS DISTINCT FROM NEW."is_platform")
  EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "subscriptions_identity_version" AFTER INSERT OR UPDATE OR DELETE ON "subscriptions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE TRIGGER "users_identity_version_truncate" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE TRIGGER "roles_identity_version_truncate" AFTER TRUNCATE ON "roles"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE TRIGGER "role_permissions_identity_version_truncate" AFTER TRUNCATE ON "role_permissions"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE TRIGGER "features_identity_version_truncate" AFTER TRUNCATE ON "features"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE TRIGGER "organizations_identity_version_truncate" AFTER TRUNCATE ON "organizations"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE TRIGGER "subscriptions_identity_version_truncate" AFTER TRUNCATE ON "subscriptions"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_identity_version"();
