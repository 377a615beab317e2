#!/usr/bin/env bash
# The system packages the tests need, installed with apt-get when missing:
# - Debian's Chromium, for the browser tests (driven by playwright-core; no browser is ever downloaded);
# - Debian's PostgreSQL, which the sandbox's PostgreSQL stores are tested against (each test run starts
#   its own server in a temporary directory: nothing is configured system-wide, no service is started);
# - Debian's wrk, the load generator `pnpm bench` runs in its own process (the bench falls back to
#   autocannon, saying so, where it is missing);
# - a Java runtime, for WireMock, one of the real servers the contract verifier is proven on (its jar
#   comes from the npm registry).
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "Missing system packages: ${missing[*]}. This user cannot install them: run 'apt-get install ${missing[*]}' as root." >&2
    exit 1
  fi
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
for package in "${missing[@]}"; do echo "installed $package"; done
