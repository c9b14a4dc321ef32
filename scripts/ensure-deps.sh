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
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq libyajl-dev pkg-config >/dev/null
pkg-config --exists yajl
