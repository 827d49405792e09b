#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests, once. Playwright drives it through
# executable_path=/usr/bin/chromium because `playwright install` cannot download browsers here.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
