-- The user search's trigram index (migration 0001) without GIN's pending list. With it, new users
-- wait in an unsorted list that every search scans until a vacuum merges it, and the planner, which
-- prices that list, chose a sequential scan of users over the index for any search term once a few
-- thousand users had arrived (PostgreSQL 15 at 10,000 users: a term matching nobody took 6.3 ms by
-- sequential scan, 0.04 ms by the index after a vacuum). Users are written rarely: each insert now
-- updates the index directly. docs/decisions/007-users-list-performance.md.
DO $$
BEGIN
  IF to_regclass('users_search_trgm') IS NOT NULL THEN
    ALTER INDEX "users_search_trgm" SET (fastupdate = off);
    PERFORM gin_clean_pending_list('users_search_trgm'::regclass);
  END IF;
END
$$;
