#!/usr/bin/env bash
# Installs the Python peers of the benchmark (msgspec and orjson, from PyPI) into a virtual
# environment under .build/bench-venv, when python3 is present. Prints a note and exits 0 when it
# cannot: the comparison then runs without their rows. Prints nothing when they are installed.
set -uo pipefail
cd "$(dirname "$0")/.."
VENV=.build/bench-venv
if [ -x "$VENV/bin/python3" ] && "$VENV/bin/python3" -c "import msgspec, orjson" 2>/dev/null; then
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "note: no python3: the msgspec and orjson rows are skipped" >&2
    exit 0
fi
echo "Installing msgspec and orjson from PyPI into $VENV (the benchmark's Python peers)..." >&2
if ! python3 -m venv "$VENV" >/dev/null 2>&1 \
    || ! "$VENV/bin/python3" -m pip install --quiet --disable-pip-version-check "msgspec>=0.18" "orjson>=3.9" >&2; then
    echo "note: could not install msgspec and orjson into $VENV: their rows are skipped" >&2
    exit 0
fi
