-- The session lookup of every signed-in request (plugins/access.ts, sessions.repo.ts
-- findActiveSessionByAccessHash) as a PL/pgSQL function: PL/pgSQL keeps the plan of its query per
-- connection, where a statement sent by the app is parsed and planned each time (PGlite, and
-- node-postgres without named statements). docs/decisions/007-users-list-performance.md.
CREATE FUNCTION "session_by_access_hash"("token_hash" text)
RETURNS TABLE ("session_id" uuid, "family_id" uuid, "user_id" uuid, "identity_version" bigint)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
    SELECT s."id", s."family_id", s."user_id",
      (SELECT v."version" FROM "data_versions" v WHERE v."name" = 'identity')
    FROM "sessions" s
    WHERE s."access_token_hash" = "token_hash" AND s."revoked_at" IS NULL AND s."access_expires_at" > now()
    LIMIT 1;
END
$$;
