#!/usr/bin/env bash
# The system packages the tests need, installed with apt-get when missing:
# - Debian's Chromium headless shell, for the browser tests (driven by playwright-core, as Playwright runs
#   headless tests; no browser is ever downloaded);
# - Debian's PostgreSQL, which the sandbox's PostgreSQL stores are tested against (each test run starts
#   its own server in a temporary directory: nothing is configured system-wide, no service is started);
# - Debian's wrk, the load generator `pnpm bench` runs in its own process (the bench falls back to
#   autocannon, saying so, where it is missing);
# - a Java runtime, for WireMock, one of the real servers the contract verifier is proven on (its jar
#   comes from the npm registry);
# - podman (with runc, and the dnsname plugin so that containers find each other by name), debootstrap
#   and podman-compose, for the images, the compose stack and the upgrade tests (deploy/): no image
#   registry is needed, the tests build their Debian and Node bases themselves;
# - ARA's server (Python, Django REST framework) and drf-spectacular, another of those real servers,
#   from Debian's own packages. Where systemd runs, ara-server's package would start a service on
#   0.0.0.0:8080: it is kept from starting and disabled (the tests start their own on 127.0.0.1).
set -euo pipefail
missing=()
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
[ -x /usr/bin/ara-manage ] || missing+=(ara-server)
command -v podman >/dev/null 2>&1 || missing+=(podman)
[ -x /usr/sbin/runc ] || missing+=(runc)
[ -x /usr/lib/cni/dnsname ] || missing+=(golang-github-containernetworking-plugin-dnsname)
command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || missing+=(debootstrap)
command -v podman-compose >/dev/null 2>&1 || missing+=(podman-compose)
/usr/bin/python3 -c "import drf_spectacular" >/dev/null 2>&1 || missing+=(python3-djangorestframework-spectacular)
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
policy=/usr/sbin/policy-rc.d
placed=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod +x "$policy"
  placed=yes
fi
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
if [ -n "$placed" ]; then $sudo rm -f "$policy"; fi
if [ -d /run/systemd/system ] && systemctl is-enabled ara-server >/dev/null 2>&1; then
  $sudo systemctl disable --now ara-server >/dev/null 2>&1 || true
fi
for package in "${missing[@]}"; do echo "installed $package"; done
