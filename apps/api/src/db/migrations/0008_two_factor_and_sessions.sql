-- Earlier migrations in the same transaction leave deferred identity-version triggers pending on
-- roles; PostgreSQL refuses to alter a table with pending trigger events, so they fire now.
SET CONSTRAINTS ALL IMMEDIATE;--> statement-breakpoint
CREATE TABLE "known_devices" (
	"user_id" uuid NOT NULL,
	"device_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "known_devices_user_id_device_hash_pk" PRIMARY KEY("user_id","device_hash")
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_totp" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_used_step" bigint,
	"spent_challenges_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "require_two_factor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_totp" ADD CONSTRAINT "user_totp_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "recovery_codes_user_code" ON "recovery_codes" USING btree ("user_id","code_hash");--> statement-breakpoint
-- Whether a user has a confirmed second factor is identity data (plugins/access.ts reads it from the
-- identity cache): its changes bump the version, its code steps do not.
CREATE CONSTRAINT TRIGGER "user_totp_identity_version" AFTER INSERT OR DELETE ON "user_totp"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "user_totp_identity_version_update" AFTER UPDATE ON "user_totp"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."confirmed_at" IS DISTINCT FROM NEW."confirmed_at")
  EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
CREATE TRIGGER "user_totp_identity_version_truncate" AFTER TRUNCATE ON "user_totp"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_identity_version"();--> statement-breakpoint
-- The super administrator's role always requires a second factor.
UPDATE "roles" SET "require_two_factor" = true WHERE "name" = 'super_admin' AND "organization_id" IS NULL;--> statement-breakpoint
-- Sign-in's second step is one statement (sign-in.repo.ts runSecondStep): it reads the account and
-- calls this for that one row. A challenge issued no later than the last one that completed a
-- sign-in is 'spent'. Otherwise the code's time step (each accepted once) or the recovery code is
-- claimed, and with it the challenge: 'claimed'. Unless the read found the account inactive or
-- locked (p_allowed false): 'refused', through the same statements as a wrong or used code.
-- PL/pgSQL keeps its plans per connection, as for session_by_access_hash.
CREATE FUNCTION "claim_second_step"("p_user" uuid, "p_issued" timestamptz, "p_step" bigint, "p_recovery_hash" text, "p_allowed" boolean)
RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  "claimed" boolean;
BEGIN
  -- The account's factor row is locked first: of two requests with one challenge, the second
  -- waits for the first, then finds the challenge spent.
  PERFORM 1 FROM "user_totp"
    WHERE "user_id" = "p_user" AND "p_issued" > coalesce("spent_challenges_until", '-infinity')
    FOR UPDATE;
  IF NOT FOUND THEN
    RETURN 'spent';
  END IF;
  IF "p_recovery_hash" IS NULL THEN
    UPDATE "user_totp" SET "last_used_step" = "p_step", "spent_challenges_until" = "p_issued"
      WHERE "user_id" = "p_user" AND "p_allowed" AND "p_step" > coalesce("last_used_step", -1);
    "claimed" := FOUND;
  ELSE
    UPDATE "recovery_codes" SET "used_at" = now()
      WHERE "user_id" = "p_user" AND "code_hash" = "p_recovery_hash" AND "used_at" IS NULL AND "p_allowed";
    "claimed" := FOUND;
    IF "claimed" THEN
      UPDATE "user_totp" SET "spent_challenges_until" = "p_issued" WHERE "user_id" = "p_user";
    END IF;
  END IF;
  RETURN CASE WHEN "claimed" THEN 'claimed' ELSE 'refused' END;
END
$$;
