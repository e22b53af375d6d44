#!/usr/bin/env bash
# Installs Debian's Chromium when /usr/bin/chromium is missing (the browser tests, Lighthouse and the
# screenshots drive it; a test tool's own browser download does not work on these machines).
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
echo "Installing Debian's Chromium (apt-get)"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
[ -x /usr/bin/chromium ] || { echo "could not install chromium"; exit 1; }
