#!/usr/bin/env bash
# Builds the @JSONModel plugin (MagmaMacros-tool) in the package's debug build, with the traits
# every debug build here uses (MAGMA_TRAITS, set by the Makefile), and prints its path. The
# benchmarks' release builds (MAGMA_MACRO_PLUGIN, see Package.swift) and the fuzz build load it with
# -load-plugin-executable, so that swift-syntax is compiled once, in debug. Build output goes to
# stderr; up to date, it takes a second or two.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
traits=(--traits "${MAGMA_TRAITS:-Hummingbird,Vapor}")
swift build --package-path "$root" --target MagmaMacros "${traits[@]}" >&2
plugin=$(swift build --package-path "$root" --show-bin-path "${traits[@]}")/MagmaMacros-tool
[ -x "$plugin" ] || { echo "macro plugin not found at $plugin" >&2; exit 1; }
echo "$plugin"
