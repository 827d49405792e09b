#!/usr/bin/env bash
# Installs Debian's HAProxy once, for `make serve` and `make serve-class` (and the class load test).
# The configurations need HAProxy 2.2 or newer (`http-after-response`: security headers on every
# response, HAProxy's own busy page included); Debian 11 and 12 ship 2.2 and 2.6.
set -euo pipefail
new_enough() {
    local version
    version=$(haproxy -v 2>/dev/null | sed -n 's/^HAProxy version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | head -n 1)
    read -r major minor <<< "${version:-0 0}"
    [ "$major" -gt 2 ] || { [ "$major" -eq 2 ] && [ "$minor" -ge 2 ]; }
}
if command -v haproxy >/dev/null 2>&1; then
    if new_enough; then exit 0; fi
    echo "HAProxy $(haproxy -v | head -n 1) is too old: 2.2 or newer is needed" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
echo "installing haproxy ..." >&2
$SUDO apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq haproxy >&2
