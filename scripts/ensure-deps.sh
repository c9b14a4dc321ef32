#!/usr/bin/env bash
# Installs what Magma needs from Debian when it is missing: libyajl-dev (the tokenizer) and pkg-config.
set -euo pipefail
if pkg-config --exists yajl 2>/dev/null && [ -f /usr/include/yajl/yajl_parse.h ]; then
    exit 0
fi
echo "Installing libyajl-dev (yajl, the JSON tokenizer Magma is built on)..." >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# Another apt (an unattended upgrade, a second make) may hold the lock: wait for it, up to 10 minutes.
LOCK_WAIT=(-o DPkg::Lock::Timeout=600)
$SUDO apt-get "${LOCK_WAIT[@]}" update -qq
$SUDO apt-get "${LOCK_WAIT[@]}" install -y -qq libyajl-dev pkg-config >/dev/null
pkg-config --exists yajl
