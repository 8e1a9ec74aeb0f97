#!/usr/bin/env bash
# Idempotent installer for the Debian packages ime-composer needs.
# The package list lives in scripts/debian-packages.txt (one per line).
# If every package is already installed this does nothing (no apt-get update).
# Swift itself is not an apt package: it is only checked for.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
list="$here/debian-packages.txt"
export DEBIAN_FRONTEND=noninteractive

die() { echo "install-deps: error: $*" >&2; exit 1; }

[ -r "$list" ] || die "package list not found: $list"
command -v dpkg-query >/dev/null 2>&1 || die "dpkg-query not found: this script supports Debian/Ubuntu only"

mapfile -t packages < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')
[ "${#packages[@]}" -gt 0 ] || die "no packages listed in $list"

missing=()
for pkg in "${packages[@]}"; do
    status="$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)"
    if [ "$status" != "installed" ]; then
        missing+=("$pkg")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} Debian packages already installed."
else
    echo "install-deps: missing: ${missing[*]}"
    if [ "$(id -u)" -eq 0 ]; then
        as_root=()
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        as_root=(sudo -n env DEBIAN_FRONTEND=noninteractive)
    elif command -v sudo >/dev/null 2>&1 && [ -t 0 ]; then
        as_root=(sudo env DEBIAN_FRONTEND=noninteractive)
    else
        die "need root to install: ${missing[*]}
  Re-run as root, or configure sudo, or install them yourself:
  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
    fi
    "${as_root[@]}" apt-get update
    "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"

    still=()
    for pkg in "${missing[@]}"; do
        status="$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)"
        [ "$status" = "installed" ] || still+=("$pkg")
    done
    [ "${#still[@]}" -eq 0 ] || die "still not installed after apt-get: ${still[*]}"
    echo "install-deps: installed ${#missing[@]} package(s)."
    # The lab runs prosody and ngIRCd in its own sessions, on ports of their own: the system
    # services Debian starts with the packages are stopped and disabled again.
    for service in prosody ngircd; do
        if printf '%s\n' "${missing[@]}" | grep -qx "$service" && [ -d /run/systemd/system ]; then
            "${as_root[@]}" systemctl disable --now "$service" || true
            echo "install-deps: the system's $service service is disabled (the lab starts its own)."
        fi
    done
fi

if ! command -v swift >/dev/null 2>&1; then
    die "'swift' not found on PATH. Swift is not installed from apt: download the
  Swift 6.x toolchain for Debian 12 from https://www.swift.org/install/linux/
  (this project uses Swift 6.3.1, e.g. unpacked to /opt/swift) and add its usr/bin to PATH."
fi
echo "install-deps: swift found: $(command -v swift)"
