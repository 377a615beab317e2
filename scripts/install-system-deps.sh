#!/usr/bin/env bash
# The one system package the tests need: Debian's Chromium, for the rendered-docs test (driven by
# playwright-core; no browser is ever downloaded). Installed with apt-get when missing.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "Chromium is missing and this user cannot install it: run 'apt-get install chromium' as root." >&2
    exit 1
  fi
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
chromium --version
