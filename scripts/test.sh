#!/usr/bin/env bash
# `npm test`: every check and test of the project, from a fresh clone. `npm run test:long` (TEST_LONG=1)
# adds the browser tours of every screen and control, the timing measurements and the long fuzz and fault
# runs (docs/decisions/019). The SQL injection scan is `npm run test:sqlmap`.
set -uo pipefail
cd "$(dirname "$0")/.."
export CI="${CI:-}"
reports=.test-reports
rm -rf "$reports" && mkdir -p "$reports"
status=0
step() { echo; echo "=== $*"; }

if [ ! -d node_modules ]; then
  step "npm install"
  npm install --no-audit --no-fund || exit 1
fi

# Chromium for the browser tests, wrk for the load generator's test, Prometheus (and promtool) for the
# metrics test; installed only when missing.
bash scripts/ensure-debian-packages.sh chromium wrk prometheus || exit 1

# Every locked package must support the lowest release of each Node major package.json promises.
step "Node versions" && { node scripts/check-engines.mjs || status=1; }
step "Lint" && { npm run lint --silent || status=1; }
step "Type check" && { npm run typecheck --silent || status=1; }

# The timing tests compare medians of a few milliseconds or hold a time limit: in the long mode they run
# after the rest, one file at a time, beside nothing; everything else runs on every core.
solo=(
  apps/api/test/signin-timing.test.ts
  apps/api/test/forgot-password-timing.test.ts
  apps/api/src/modules/imports/imports-commit.test.ts
)
# vitest run [--project api] NAME: every file on every core, then (long mode) the solo files one at a time.
vitest_pass() {
  local name=$1
  shift
  if [ "${TEST_LONG:-}" != 1 ]; then
    npx vitest run "$@" --reporter=default --reporter=json --outputFile="$reports/vitest-$name.json" || status=1
    return
  fi
  local excluded=()
  for file in "${solo[@]}"; do excluded+=(--exclude "**/$(basename "$file")"); done
  npx vitest run "$@" "${excluded[@]}" --reporter=default --reporter=json --outputFile="$reports/vitest-$name.json" || status=1
  npx vitest run "$@" --maxWorkers=1 --reporter=default --reporter=json --outputFile="$reports/vitest-$name-solo.json" "${solo[@]}" || status=1
}

step "Unit and API tests (API on embedded PGlite)"
vitest_pass pglite

if node scripts/postgres-available.mjs; then
  step "API tests on PostgreSQL"
  TEST_DATABASE=postgres vitest_pass postgres --project api
else
  step "PostgreSQL not reachable: API suites ran on PGlite only"
fi

step "Build the web app" && { npm run build -w apps/web --silent || status=1; }
step "Browser tests (Playwright, Debian Chromium)"
npm test -w e2e || status=1

echo
node scripts/summarize.mjs "$reports"/*.json || status=1
exit $status
