-- A session carries whether the sign-in that opened its family passed a second factor, so a session
-- opened with the password alone never becomes a full one when its account enrols later (issue 29).
ALTER TABLE "sessions" ADD COLUMN "second_factor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Sessions already open: a family that began after its user's factor was confirmed signed in with it.
UPDATE "sessions" s SET "second_factor" = true
  FROM "user_totp" t
  WHERE t."user_id" = s."user_id" AND t."confirmed_at" IS NOT NULL
    AND t."confirmed_at" <= (SELECT min(f."created_at") FROM "sessions" f WHERE f."family_id" = s."family_id");--> statement-breakpoint
DROP FUNCTION "session_by_access_hash"(text);--> statement-breakpoint
CREATE FUNCTION "session_by_access_hash"("token_hash" text)
RETURNS TABLE ("session_id" uuid, "family_id" uuid, "user_id" uuid, "second_factor" boolean, "identity_version" bigint)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
    SELECT s."id", s."family_id", s."user_id", s."second_factor",
      (SELECT v."version" FROM "data_versions" v WHERE v."name" = 'identity')
    FROM "sessions" s
    WHERE s."access_token_hash" = "token_hash" AND s."revoked_at" IS NULL AND s."access_expires_at" > now()
    LIMIT 1;
END
$$;
