#!/usr/bin/env bash
# Builds the libFuzzer binary (Fuzz/) and runs one of its targets: Magma's model decoding
# (FUZZ_TARGET=models, the default: Fuzz/FuzzHarness.swift), the streaming record API
# (FUZZ_TARGET=records: Fuzz/RecordFuzzHarness.swift, seeds in Fuzz/seeds-records/, with the error
# policy, layout, limits and chunking drawn from each input's header), or the two readers against
# each other (FUZZ_TARGET=readers: Fuzz/ReaderFuzzHarness.swift: the scanner, yajl, and yajl in
# pieces of varying sizes, seeded with JSONTestSuite, the corpus files beside the repository, and
# both seed folders). The binary holds all three; Fuzz/FuzzMain.swift picks one from
# MAGMA_FUZZ_TARGET, which this script sets.
#
#   scripts/fuzz.sh [seconds]     build, then fuzz for `seconds` (default 60; 0 = build only)
#   FUZZ_TARGET=records scripts/fuzz.sh 60
#
# Magma's sources and Fuzz/*.swift are compiled as one module with -sanitize=fuzzer,address;
# CYajl is found through its module map (-I CYajl) and yajl is linked with -lyajl. The fuzz models
# are @JSONModel types: the macro plugin (scripts/macro-plugin.sh, the package's debug build) is
# loaded with -load-plugin-executable.
# The seed corpus is JSONTestSuite (../shared/JSONTestSuite when present, else the committed
# subset) plus Fuzz/seeds/, each file behind a 2-byte header (see Fuzz/FuzzHarness.swift).
# It runs at nice 19 in libFuzzer's fork mode with one job, and goes on after a crash, a timeout
# or a leak, so one run collects every finding: crash-*, timeout-*, leak-* and oom-* files land in
# the target's artifacts/ (.build-fuzz, .build-fuzz-records, .build-fuzz-readers). Copy each one
# worth keeping to Fuzz/regressions*/ (the tests replay them). Replay one by hand with
# `MAGMA_FUZZ_TARGET=readers .build-fuzz/magma-fuzz FILE`.
#
# Exit status: 0 when the run found nothing; libFuzzer's non-zero status when it kept an artifact.
# A long run is best made with the understood findings not checked, e.g.
#   MAGMA_FUZZ_IGNORE=chunk-offset scripts/fuzz.sh 1800
#
# Environment: FUZZ_OUT (the target's folder, default above), FUZZ_BIN (the binary, default
# .build-fuzz/magma-fuzz), FUZZ_BUILD=no (run FUZZ_BIN as built: .ci/run builds once for the three
# targets), FUZZ_JOBS (default 1), FUZZ_ARGS (extra libFuzzer flags), SWIFTC (default swiftc),
# FUZZ_SOURCES (the Magma sources to build, default Sources/Magma; point it at a snapshot to fuzz a
# fixed revision while the tree is being edited), MAGMA_FUZZ_IGNORE (invariant classes not to
# check, see Fuzz/FuzzHarness.swift).
# Fuzz/lsan.supp lists the leak reports known not to be Magma's leaks.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
target=${FUZZ_TARGET:-models}
case $target in
    models) out=${FUZZ_OUT:-$root/.build-fuzz} ;;
    records) out=${FUZZ_OUT:-$root/.build-fuzz-records} ;;
    readers) out=${FUZZ_OUT:-$root/.build-fuzz-readers} ;;
    *) echo "FUZZ_TARGET must be models, records or readers" >&2; exit 2 ;;
esac
jobs=${FUZZ_JOBS:-1}
swiftc=${SWIFTC:-swiftc}
bin=${FUZZ_BIN:-$root/.build-fuzz/magma-fuzz}

"$root/scripts/ensure-deps.sh" >/dev/null 2>&1 || true
mkdir -p "$out/artifacts" "$out/corpus" "$out/seeds"

# Build. -O keeps preconditions and bounds checks; -g gives symbolised reports.
if [ "${FUZZ_BUILD:-yes}" != no ]; then
    mapfile -t sources < <(find "${FUZZ_SOURCES:-$root/Sources/Magma}" -name '*.swift' | sort)
    yajl_includes=()
    for flag in $(pkg-config --cflags-only-I yajl 2>/dev/null); do yajl_includes+=(-Xcc "$flag"); done
    echo "building the macro plugin"
    plugin=$(nice -n 19 "$root/scripts/macro-plugin.sh" 2>"$out/macro-plugin.log") \
        || { cat "$out/macro-plugin.log" >&2; exit 1; }
    echo "building $bin"
    mkdir -p "$(dirname "$bin")"
    rm -f "$bin"
    # ld.gold warns about every local ASan thunk it cannot export: harmless, filtered out.
    nice -n 19 "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 \
        -module-name Magma -D MAGMA_FUZZ -I "$root/CYajl" "${yajl_includes[@]}" \
        -load-plugin-executable "$plugin#MagmaMacros" \
        "${sources[@]}" $(find "$root/Fuzz" -maxdepth 1 -name '*.swift' | sort) \
        -lyajl -o "$bin" 2>&1 \
        | { grep -v "Cannot export local symbol '__asan" || true; }
fi
[ -x "$bin" ] || { echo "fuzz target build failed" >&2; exit 1; }

[ "$seconds" -gt 0 ] || exit 0

# Seeds: every suite file with the default header (whole buffer, default options), and the
# model-shaped seeds with a few headers (chunk sizes, array mode, options).
suite=$root/../shared/JSONTestSuite/test_parsing
[ -d "$suite" ] || suite=$root/Tests/MagmaTests/Fixtures/JSONTestSuite
rm -f "$out/seeds"/*
if [ "$target" = readers ]; then
    # Records and the start of each corpus file too (within -max_len, below), two headers each.
    for f in "$root"/Fuzz/seeds-records/* "$root"/Fuzz/seeds/*.json "$root"/../shared/corpus/*; do
        [ -f "$f" ] || continue
        name=$(basename "$f")
        for header in '\x00\x00' '\x2a\x05'; do
            { printf "$header"; head -c 8000 "$f"; } > "$out/seeds/$name-$(printf '%s' "$header" | tr -d '\\x')"
        done
    done
fi
if [ "$target" = records ]; then
    # Every layout (bits 3-4) with both policies (bit 5), in a few chunk sizes and limits.
    for f in "$root"/Fuzz/seeds-records/*; do
        name=$(basename "$f")
        for header in '\x00\x00' '\x08\x00' '\x10\x00' '\x18\x00' '\x21\x00' '\x29\x03' '\x32\x10' '\x3b\x00' '\x6a\x04'; do
            { printf "$header"; cat "$f"; } > "$out/seeds/$name-$(printf '%s' "$header" | tr -d '\\x')"
        done
    done
fi
for f in "$suite"/*.json; do
    { printf '\x00\x00'; cat "$f"; } > "$out/seeds/$(basename "$f")"
done
# The target's past findings too: every run replays them under the sanitizers first (a leak is
# only seen there; the test suite's replay checks the invariants).
if [ "$target" = models ]; then regressions=$root/Fuzz/regressions; else regressions=$root/Fuzz/regressions-$target; fi
for f in "$regressions"/*; do
    if [ -f "$f" ] && [ "${f%.md}" = "$f" ]; then cp "$f" "$out/seeds/regression-$(basename "$f")"; fi
done
for f in "$root"/Fuzz/seeds/*.json; do
    name=$(basename "$f" .json)
    for header in '\x00\x00' '\x01\x00' '\x04\x00' '\x08\x00' '\x1b\x00' '\x00\x03' '\x02\x1c' '\x0a\x80'; do
        { printf "$header"; cat "$f"; } > "$out/seeds/$name-$(printf '%s' "$header" | tr -d '\\x')"
    done
done

echo "fuzzing for $seconds s (fork mode, $jobs job(s)); findings in $out/artifacts/"
[ -z "${MAGMA_FUZZ_IGNORE:-}" ] || echo "not checking invariant classes: $MAGMA_FUZZ_IGNORE"
cd "$out"
# Swift's own crash backtracer fights ASan for the crashing process (and its helper can hang
# holding the output open): libFuzzer and ASan report crashes here.
export SWIFT_BACKTRACE=enable=no
export MAGMA_FUZZ_TARGET=$target
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# shellcheck disable=SC2086
exec nice -n 19 "$bin" "$out/corpus" "$out/seeds" \
    -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -dict="$root/Fuzz/magma.dict" -artifact_prefix="$out/artifacts/" -print_final_stats=1 \
    ${FUZZ_ARGS:-}
