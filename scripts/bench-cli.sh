#!/usr/bin/env bash
# make bench-cli: `magma extract` against jq on the generated GitHub-issues corpus, as NDJSON and as
# one array, the same fields written as NDJSON by both: MB/s, rows and peak memory (/usr/bin/time -v)
# for magma --jobs 1 and --jobs <cores>, `jq -c` and `jq -R -c 'fromjson? | …'` (for the array, whose
# lines are not records: `jq -c '.[] | …'` and jq's bounded-memory form, `jq -cn --stream`). Systems
# alternate, RUNS rounds (default 3) after an untimed one; each figure is a system's best round
# (wall time of the process), printed with the 1-minute load when it ran. Not run by CI.
#   BENCH_CLI_MB=64 (corpus size in MiB), RUNS=3, MAGMA=path (default: make magma-static's binary).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
MB="${BENCH_CLI_MB:-64}"
WORK=.build-cli
mkdir -p "$WORK"

# jq from Debian when it is missing.
if ! command -v jq >/dev/null; then
    echo "Installing jq..." >&2
    scripts/apt-install.sh jq
fi

if [ -z "${MAGMA:-}" ]; then
    make -s magma-static >&2
    MAGMA=.build-static/magma
fi

# The corpus: Benchmarks/Sources/Corpus's generator (the bytes `make bench` reads), built on its own
# with swiftc (a few seconds; no benchmark package build).
GEN="$WORK/corpus-gen"
if [ ! -x "$GEN" ] || [ -n "$(find Benchmarks/Sources/Corpus/Generator -newer "$GEN")" ]; then
    printf '%s\n' 'import Foundation' \
        'let mib = Int(CommandLine.arguments[1])!, format = GitHubIssueCorpus.Format(rawValue: CommandLine.arguments[2])!' \
        'try GitHubIssueCorpus().write(targetBytes: mib << 20, format: format, to: URL(fileURLWithPath: CommandLine.arguments[3]))' \
        > "$WORK/main.swift"
    swiftc -O -module-name CorpusGen Benchmarks/Sources/Corpus/Generator/*.swift "$WORK/main.swift" -o "$GEN"
fi
NDJSON="$WORK/github-issues-${MB}MB.ndjson"
ARRAY="$WORK/github-issues-${MB}MB.json"
[ -f "$NDJSON" ] || "$GEN" "$MB" ndjson "$NDJSON"
[ -f "$ARRAY" ] || "$GEN" "$MB" array "$ARRAY"

FIELDS=(--field login=user.login --field number:int --field state --field updated=updated_at:date --field title)
PICK='{login: .user.login, number: .number, state: .state, updated: .updated_at, title: .title}'
CORES=$(nproc)
declare -A CMD
CMD[ndjson/magma-1]="$MAGMA extract --quiet --format ndjson --jobs 1 ${FIELDS[*]} $NDJSON"
CMD[ndjson/magma-$CORES]="$MAGMA extract --quiet --format ndjson --jobs $CORES ${FIELDS[*]} $NDJSON"
CMD[ndjson/jq-c]="jq -c '$PICK' $NDJSON"
CMD[ndjson/jq-R-fromjson]="jq -R -c 'fromjson? | $PICK' $NDJSON"
CMD[array/magma-1]="$MAGMA extract --quiet --format ndjson --jobs 1 ${FIELDS[*]} $ARRAY"
CMD[array/magma-$CORES]="$MAGMA extract --quiet --format ndjson --jobs $CORES ${FIELDS[*]} $ARRAY"
CMD[array/jq-c]="jq -c '.[] | $PICK' $ARRAY"
CMD[array/jq-stream]="jq -cn --stream 'fromstream(1 | truncate_stream(inputs)) | $PICK' $ARRAY"
ORDER=(ndjson/magma-1 "ndjson/magma-$CORES" ndjson/jq-c ndjson/jq-R-fromjson array/magma-1 "array/magma-$CORES" array/jq-c array/jq-stream)

# CPU time by perf's task-clock (to the microsecond) where perf runs, else /usr/bin/time's (to 10 ms).
PERF=""
if perf stat -x, -e task-clock -o /dev/null -- true 2>/dev/null; then PERF="perf stat -x, -e task-clock -o $WORK/perf --"; fi

# One untimed run of each first: the binaries and the inputs in the page cache.
for name in "${ORDER[@]}"; do bash -c "${CMD[$name]} > /dev/null"; done
declare -A BEST BEST_LOAD ROWS PEAK CPU
for round in $(seq "$RUNS"); do
    for name in "${ORDER[@]}"; do
        load=$(cut -d' ' -f1 /proc/loadavg)
        start=$(date +%s%N)
        $PERF /usr/bin/time -v -o "$WORK/time" bash -c "${CMD[$name]} > $WORK/out" 2>/dev/null
        seconds=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
        rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$WORK/time")
        if [ -n "$PERF" ]; then
            cpu=$(awk -F, '$3 == "task-clock" { printf "%.3f", $1 / 1000 }' "$WORK/perf")
        else
            cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.3f", s }' "$WORK/time")
        fi
        rows=$(wc -l < "$WORK/out")
        echo "round $round: $name ${seconds}s (${cpu}s CPU), $rows rows, $((rss / 1024)) MB peak (load $load)" >&2
        if [ -z "${BEST[$name]:-}" ] || awk -v a="$seconds" -v b="${BEST[$name]}" 'BEGIN { exit !(a < b) }'; then
            BEST[$name]=$seconds; BEST_LOAD[$name]=$load; ROWS[$name]=$rows; PEAK[$name]=$((rss / 1024)); CPU[$name]=$cpu
        fi
    done
done

echo
echo "magma extract vs jq $(jq --version): ${MB} MiB generated GitHub issues, 5 fields written as NDJSON; best of $RUNS;"
echo "$CORES cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
printf '%-16s %-7s %8s %8s %8s %12s %7s %8s %6s\n' system input seconds MB/s "CPU s" "MB/CPU-s" rows "peak MB" load
for name in "${ORDER[@]}"; do
    input=${name%%/*}; file=$NDJSON; [ "$input" = array ] && file=$ARRAY
    bytes=$(stat -c %s "$file")
    awk -v n="${name#*/}" -v i="$input" -v s="${BEST[$name]}" -v b="$bytes" -v r="${ROWS[$name]}" -v p="${PEAK[$name]}" \
        -v l="${BEST_LOAD[$name]}" -v c="${CPU[$name]}" \
        'BEGIN { printf "%-16s %-7s %8.3f %8.1f %8.3f %12.1f %7d %8d %6s\n", n, i, s, b / 1e6 / s, c, b / 1e6 / c, r, p, l }'
done
# Per core: MB per CPU-second, which a busy machine disturbs less than wall time. jq runs on one
# core, so ten times jq's rate takes ten times as many of magma's CPU-seconds per MB as jq's.
awk -v one="${BEST[ndjson/magma-1]}" -v all="${BEST[ndjson/magma-$CORES]}" -v jq="${BEST[ndjson/jq-c]}" \
    -v jqr="${BEST[ndjson/jq-R-fromjson]}" -v c="$CORES" -v mc="${CPU[ndjson/magma-1]}" -v jc="${CPU[ndjson/jq-c]}" \
    -v jrc="${CPU[ndjson/jq-R-fromjson]}" 'BEGIN {
    printf "\nNDJSON, wall: magma --jobs 1 is %.1fx jq -c and %.1fx jq -R fromjson; --jobs %d %.1fx and %.1fx.\n", jq / one, jqr / one, c, jq / all, jqr / all
    printf "NDJSON, per core (CPU time): magma %.1fx jq -c and %.1fx jq -R fromjson; ten times jq -c takes %.1f cores\n", jc / mc, jrc / mc, 10 * mc / jc
    printf "scaling perfectly (ten times jq -R fromjson, %.1f), against the %d here.\n", 10 * mc / jrc, c
}'
awk -v one="${BEST[array/magma-1]}" -v all="${BEST[array/magma-$CORES]}" -v jq="${BEST[array/jq-c]}" -v c="$CORES" 'BEGIN {
    printf "Array, wall: magma --jobs 1 is %.1fx jq -c; --jobs %d %.1fx (%.2fx --jobs 1).\n", jq / one, c, jq / all, one / all
}'
