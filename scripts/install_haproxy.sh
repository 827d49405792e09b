#!/usr/bin/env bash
# Installs Debian's HAProxy once, for `make serve` and `make serve-class` (and the class load test).
set -euo pipefail
if command -v haproxy >/dev/null 2>&1; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
echo "installing haproxy ..." >&2
$SUDO apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq haproxy >&2
