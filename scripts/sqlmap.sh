#!/usr/bin/env bash
# SQL injection scan (issue 7 "Proof"): `npm run test:sqlmap`, up to 25 minutes per route.
# Starts a throwaway portal on loopback (temporary DATA_DIR, free port, known super administrator),
# signs in for the session cookies and the CSRF token, and runs sqlmap at --level=5 --risk=3 against
# the sign-in (JSON body), the users list and the roles routes. Fails if sqlmap reports any injectable
# parameter, or if a run does not finish within its time bound. Loopback only: 127.0.0.1.
set -uo pipefail
cd "$(dirname "$0")/.."

RUN_TIMEOUT="${SQLMAP_RUN_TIMEOUT:-1500}" # seconds per sqlmap run
ADMIN_EMAIL="sqlmap-root@portal.test"
ADMIN_PASSWORD="Sqlmap-Passw0rd!"
HOST=127.0.0.1

bash scripts/ensure-debian-packages.sh sqlmap || exit 1

work="$(mktemp -d "${TMPDIR:-/tmp}/portal-sqlmap-XXXXXX")"
reports=.test-reports/sqlmap
mkdir -p "$reports"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$server_pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT

port="$(node -e "const s=require('net').createServer();s.listen(0,'$HOST',()=>{console.log(s.address().port);s.close()})")"
base="http://$HOST:$port"

# Sign-in attempts per address are many during the scan; everything else is the production setup, with
# the sandbox's payments (no card provider to reach) and the scan's own address as the public one.
PORT="$port" HOST="$HOST" DATA_DIR="$work/data" DATABASE_URL="" LOG_LEVEL=warn NODE_ENV=production \
  PUBLIC_URL="$base" PAYMENT_PROVIDER=sandbox \
  ADMIN_EMAIL="$ADMIN_EMAIL" ADMIN_PASSWORD="$ADMIN_PASSWORD" LOGIN_ATTEMPTS_PER_ADDRESS=1000000 \
  node --import tsx apps/api/src/server.ts >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 180); do
  grep -q "is running at" "$work/server.log" && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.5
done
if ! grep -q "is running at" "$work/server.log"; then
  echo "the portal did not start:"; cat "$work/server.log"; exit 1
fi
echo "portal on $base (data in $work/data)"

jar="$work/cookies.txt"
login_status="$(curl -s -o "$work/login.json" -w '%{http_code}' -c "$jar" -H 'Content-Type: application/json' \
  --data "{\"identifier\":\"$ADMIN_EMAIL\",\"password\":\"$ADMIN_PASSWORD\"}" "$base/api/auth/auth-session/login")"
[ "$login_status" = 200 ] || { echo "sign-in failed ($login_status)"; cat "$work/login.json"; exit 1; }
cookie_value() { awk -v name="$1" '$6 == name { print $7 }' "$jar" | tail -n 1; }
access="$(cookie_value access_token)"
csrf="$(cookie_value XSRF-TOKEN)"
[ -n "$access" ] && [ -n "$csrf" ] || { echo "no session cookies after sign-in"; exit 1; }
cookie="access_token=$access; XSRF-TOKEN=$csrf"
role_id="$(curl -s -H "Cookie: $cookie" "$base/api/auth/roles" | node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).data[0].id))")"
[ -n "$role_id" ] || { echo "could not read a role id"; exit 1; }

status=0
summary=()
# run NAME sqlmap-arguments...: one bounded sqlmap run; its log goes to $reports/NAME.log.
run() {
  local name="$1"; shift
  local log="$reports/$name.log"
  echo
  echo "--- sqlmap: $name"
  local started=$SECONDS
  # 401 (an injected cookie or a refused sign-in), 400 (a value the schema refuses), 404 and 429 are
  # ordinary answers here, not reasons for sqlmap to stop.
  timeout --kill-after=30 "$RUN_TIMEOUT" sqlmap "$@" \
    --batch --level=5 --risk=3 --dbms=PostgreSQL --time-sec=3 --timeout=20 --retries=1 \
    --ignore-code=400,401,403,404,429 --drop-set-cookie --flush-session --disable-coloring \
    --output-dir="$work/sqlmap" -H "X-CSRF-Token: $csrf" --cookie="$cookie" >"$log" 2>&1
  local code=$?
  local took=$((SECONDS - started))
  # Strip the terminal escapes sqlmap prints even into a file.
  sed -i 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1b[()][A-Z0-9]//g; s/\x1b[=>]//g' "$log"
  local tested
  tested="$(grep -oE "testing for SQL injection on .*parameter '[^']+'" "$log" | sed 's/testing for SQL injection on //' | paste -sd ',' -)"
  if [ "$code" -eq 124 ] || [ "$code" -eq 137 ]; then
    echo "  did not finish within ${RUN_TIMEOUT}s"; status=1; summary+=("$name: TIMED OUT after ${took}s")
  # Only sqlmap's final verdict counts: a candidate it then rejects as a false positive (a slow
  # answer under load looking like a time-based hit) is reported, not failed.
  elif grep -qiE "identified the following injection point|parameter '[^']+' is vulnerable" "$log"; then
    echo "  INJECTABLE:"; grep -iE -A12 "identified the following injection point|is vulnerable" "$log" | head -n 40
    status=1; summary+=("$name: INJECTABLE (see $log)")
  elif grep -q "do not appear to be injectable" "$log"; then
    summary+=("$name: no injectable parameter (${took}s; tested: ${tested:-see log})")
  else
    echo "  sqlmap ended without a verdict (exit $code):"; tail -n 20 "$log"
    status=1; summary+=("$name: NO VERDICT (exit $code, see $log)")
  fi
  echo "  tested: ${tested:-?}"
  grep -E "appears to be '.*' injectable|false positive or unexploitable" "$log" | sed 's/^/  candidate: /'
  grep -E "does not seem to be injectable|HTTP error codes|^[0-9]{3} \(|\[(CRITICAL|ERROR)\]" "$log" | sed 's/^/  /'
  echo "  took ${took}s"
}

run sign-in -u "$base/api/auth/auth-session/login" --method=POST -H 'Content-Type: application/json' \
  --data '{"identifier":"nobody@portal.test","password":"Wr0ng-Passw0rd!"}'
run users-list -u "$base/api/auth/users?search=root&sort=createdAt&role=admin&page=1"
run roles-list -u "$base/api/auth/roles?search=admin"
run role-by-id -u "$base/api/auth/roles/${role_id}*"

echo
echo "=== sqlmap summary (logs in $reports/)"
printf '  %s\n' "${summary[@]}"
if grep -qiE "error|unhandled" "$work/server.log"; then
  echo "  the portal logged errors during the scan:"; grep -iE "error|unhandled" "$work/server.log" | head -n 10
fi
exit $status
