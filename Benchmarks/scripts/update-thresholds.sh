#!/usr/bin/env bash
# Re-measures Magma's and yajl's allocation counts with package-benchmark and stores them as the
# static thresholds in Benchmarks/Thresholds/ (mallocCountTotal only: time and memory vary by
# machine, allocation counts do not). Run after a change that moves allocations on purpose, and
# commit the result. `swift package benchmark thresholds check` compares against these files.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package --allow-writing-to-package-directory benchmark thresholds update \
    --target MagmaBenchmarks --filter '.*(Magma|yajl).*' --no-progress
for file in Thresholds/*.p90.json; do
    python3 - "$file" <<'PY'
import json, sys
path = sys.argv[1]
values = json.load(open(path))
json.dump({"mallocCountTotal": values["mallocCountTotal"]}, open(path, "w"), indent=2, sort_keys=True)
open(path, "a").write("\n")
print(path, values["mallocCountTotal"])
PY
done
