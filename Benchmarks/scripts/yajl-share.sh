#!/usr/bin/env bash
# Magma's share of the yajl ceiling on one file, from alternating child runs (yajl, Magma, yajl,
# ...), best of each: the quick check of the floor on a busy machine, where one long run of each
# would see different loads. Build first: swift build -c release --product compare.
#
#   scripts/yajl-share.sh FILE [MODEL] [ROUNDS]     (MODEL default github-issues-seed, ROUNDS 3)
set -euo pipefail
cd "$(dirname "$0")/.."
file=$1; model=${2:-github-issues-seed}; rounds=${3:-3}
for _ in $(seq "$rounds"); do
    for system in yajl magma; do
        .build/release/compare --child --only "$system" --corpus "$file" --model "$model" --min-runs 5 --min-seconds 0.5 \
            | sed -n 's/.*"bestSeconds":\([0-9.]*\).*/\1/p' | sed "s/^/$system /"
    done
done | awk '{ if (!($1 in best) || $2 < best[$1]) best[$1] = $2 }
    END { printf "yajl %.4f s, Magma %.4f s: %.1f %% of yajl\n", best["yajl"], best["magma"], 100 * best["yajl"] / best["magma"] }'
