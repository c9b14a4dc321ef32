#!/usr/bin/env bash
# Installs what Magma needs from Debian when it is missing: libyajl-dev (the tokenizer) and pkg-config.
set -euo pipefail
if pkg-config --exists yajl 2>/dev/null && [ -f /usr/include/yajl/yajl_parse.h ]; then
    exit 0
fi
echo "Installing libyajl-dev (yajl, the JSON tokenizer Magma is built on)..." >&2
"$(dirname "$0")/apt-install.sh" libyajl-dev pkg-config
pkg-config --exists yajl
