#!/usr/bin/env bash
# Figures for the note on the magma command: `magma extract` MB/s on the generated 64 MB GitHub
# corpus (NDJSON) beside `jq -c` with the same fields and beside decoding the same fields with a
# declared model (RecordDecoder, no output); then Spark local[2] wall time against one process.
# Each figure is the best of RUNS (default 3) and is printed with `uptime`'s load. Measures only
# when the 1-minute load is under 1.5 (a shared machine gives no figure worth keeping otherwise);
# FIGURES_ANY_LOAD=1 measures anyway, for figures reported with their load.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
CORPUS=Benchmarks/results/corpus/github-issues-64MB.ndjson
FIELDS=(--field login=user.login --field number:int --field updated=updated_at:date)
JQ='{login: .user.login, number: .number, updated: .updated_at}'

load() { cut -d' ' -f1 /proc/loadavg; }
if [ -z "${FIGURES_ANY_LOAD:-}" ] && awk "BEGIN { exit !($(load) >= 1.5) }"; then
    echo "load $(load) >= 1.5: not measuring (FIGURES_ANY_LOAD=1 to measure anyway)" >&2
    exit 1
fi
command -v jq >/dev/null || { echo "jq is missing: apt-get install jq" >&2; exit 1; }
[ -f "$CORPUS" ] || swift run -c release --package-path Benchmarks compare --generate-only --size-mb 64 >&2
swift build -c release --product magma >&2
MAGMA="$(swift build -c release --show-bin-path)/magma"

# The model peer: the same three fields declared as a model, decoded from the file, kept nowhere.
PEER=.build-figures/peer
mkdir -p "$PEER/Sources/peer"
cat > "$PEER/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "peer", dependencies: [.package(name: "Magma", path: "$PWD")],
    targets: [.executableTarget(name: "peer", dependencies: [.product(name: "Magma", package: "Magma")])])
SWIFT
cat > "$PEER/Sources/peer/main.swift" <<'SWIFT'
import Foundation
import Magma
struct Row: JSONModel {
    var login: String?
    var number = 0
    var updated: Date?
    static let jsonMapping = JSONMapping<Row> {
        Map(\.login, "user.login")
        Map(\.number, "number")
        Map(\.updated, "updated_at")
    }
}
var count = 0
let handle = FileHandle(forReadingAtPath: CommandLine.arguments[1])!
try JSONAdapter.forEachRecord(Row.self, from: handle, layout: .ndjson) { _ in count += 1 }
print(count)
SWIFT
swift build -c release --package-path "$PEER" >&2
PEER_BIN="$PEER/.build/release/peer"

BYTES=$(stat -c %s "$CORPUS")
best() {  # best wall seconds of RUNS runs of "$@" (output discarded)
    local best=""
    for _ in $(seq "$RUNS"); do
        local t0 t1
        t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N)
        best=$(awk -v a="$t0" -v b="$t1" -v best="$best" 'BEGIN { t = b - a; if (best == "" || t < best) best = t; print best }')
    done
    echo "$best"
}
report() { awk -v n="$1" -v s="$2" -v b="$BYTES" -v l="$(cat /proc/loadavg | cut -d' ' -f1-3)" \
    'BEGIN { printf "%-34s %7.2f s  %7.1f MB/s   (load %s)\n", n, s, b / 1e6 / s, l }'; }

echo "corpus: $CORPUS ($BYTES bytes), best of $RUNS; $(nproc) cores; $(uptime)"
report "magma extract --format csv" "$(best "$MAGMA" extract --quiet "${FIELDS[@]}" "$CORPUS")"
report "magma extract --format ndjson" "$(best "$MAGMA" extract --quiet --format ndjson "${FIELDS[@]}" "$CORPUS")"
report "model decode (RecordDecoder)" "$(best "$PEER_BIN" "$CORPUS")"
report "jq -c (same fields)" "$(best jq -c "$JQ" "$CORPUS")"

PY=$(scripts/spark-setup.sh)
rm -rf .build-figures/spark-out
t0=$(date +%s.%N)
"$PY" scripts/spark-extract.py --master 'local[2]' --partitions 8 --magma "$MAGMA" --format csv \
    --field login=user.login --field number:int --field updated=updated_at:date "$CORPUS" .build-figures/spark-out 2>/dev/null
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v l="$(cut -d' ' -f1-3 /proc/loadavg)" \
    'BEGIN { printf "%-34s %7.2f s  (wall, with JVM start-up; load %s)\n", "Spark local[2], 8 partitions", b - a, l }'
report "one magma extract process" "$(best "$MAGMA" extract --quiet --format csv "${FIELDS[@]}" "$CORPUS")"
