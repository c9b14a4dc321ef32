#!/usr/bin/env bash
# Installs Debian packages: `scripts/apt-install.sh PACKAGE...` runs apt-get update, then install
# (through sudo when not root). Another apt (an unattended upgrade, a second make, CI's Spark set-up
# beside the build) may hold apt's locks: each step waits for them, up to 10 minutes.
# DPkg::Lock::Timeout covers dpkg's lock only; apt 2.6 gives up at once on the lists and archive
# locks, so a step that reports a held lock is tried again.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

apt_get() {
    local out
    for _ in $(seq 120); do
        if out=$($SUDO apt-get -o DPkg::Lock::Timeout=600 "$@" 2>&1); then return 0; fi
        grep -q "Could not get lock" <<<"$out" || { echo "$out" >&2; return 1; }
        sleep 5
    done
    echo "$out" >&2
    return 1
}

apt_get update -qq
apt_get install -y -qq "$@"
