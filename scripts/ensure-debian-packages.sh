#!/usr/bin/env bash
# `ensure-debian-packages.sh chromium wrk`: installs each named Debian package whose command
# (/usr/bin/<name>) is missing. Chromium drives the browser tests, Lighthouse and the screenshots (a
# test tool's own browser download does not work on these machines); wrk drives the load benchmarks;
# sqlmap scans for SQL injection in the long security mode; prometheus (with promtool) scrapes the
# portal in the metrics test.
set -euo pipefail
missing=()
for package in "$@"; do
  [ -x "/usr/bin/$package" ] || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing Debian's ${missing[*]} (apt-get)"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
for package in "${missing[@]}"; do
  [ -x "/usr/bin/$package" ] || { echo "could not install $package"; exit 1; }
done
