#!/usr/bin/env bash
# A small mutation check: applies hand-made bugs to the sources one at a time, rebuilds, and
# expects the named test suites to fail on each. A bug the suites let through is a gap in the
# tests, not in the code: close it with a test that fails on it.
#
#   scripts/mutations.sh            every mutation below
#   scripts/mutations.sh M3 M7      only those
#   DRY_RUN=1 scripts/mutations.sh  only check that each mutation still applies (no build)
#
# Each mutation is a Perl substitution over one file (whole file as one string, so the pattern
# may span lines and name its context); one that no longer matches the source is reported as
# "did not apply" and counts as a failure of this script, so the list cannot silently go stale.
# The file is restored from git after each mutation: run on a clean tree (checked).
# Exit status: 0 when every mutation applied and was caught.
set -uo pipefail
cd "$(dirname "$0")/.."

if ! git diff --quiet -- Sources; then
    echo "mutations.sh: Sources/ has uncommitted changes; commit or discard them first" >&2
    exit 2
fi

# name % file % perl substitution % swift test --filter (a regex: A|B)
mutations=(
  "M1%Sources/Magma/Transformers/DateParsing.swift%s/case 4, 6, 9, 11: return 30/case 4, 6, 9, 11: return 31/%MutationGapTests"
  "M2%Sources/Magma/Decoding/EventBuilder.swift%s/(func startArray\(\) -> Bool \{.*?)if skipDepth > 0 \{ skipDepth \+= 1; return true \}/\$1if skipDepth > 0 { return true }/s%MutationGapTests"
  "M3%Sources/Magma/Streaming/RecordDecoder.swift%s/lineNumber \+= 1\n(\s*)if line.allSatisfy\(isBlank\) \{ return \}/if line.allSatisfy(isBlank) { return }\n\$1lineNumber += 1/%MutationGapTests"
  "M4%Sources/Magma/Mapping/Map.swift%s/merge = \{ \\\$0\[keyPath: property\] = \\\$1\[keyPath: property\] \}(\n\s*remake = nil)/merge = { _, _ in }\$1/%MergeUpdateTests"
  "M5%Sources/Magma/Encoding/JSONWriter.swift%s/table\[c\] = c < 0x20 /table[c] = c < 0x1F /%MutationGapTests"
  "M6%Sources/Magma/Decoding/EventBuilder.swift%s/depth \+ skipDepth >= options.maxDepth/depth + skipDepth > options.maxDepth/g%OptionsTests|RecordStreamLimitTests"
  "M7%Sources/Magma/Streaming/RecordDecoder.swift%s/receiver.holds = true/receiver.holds = false/%RecordStreamLimitTests"
  "M8%Sources/Magma/Decoding/EventBuilder.swift%s/,\n\s*e.code != .depthLimitExceeded \{/ {/%RecordStreamLimitTests"
  "M9%Sources/Magma/Tokenizer/Tokenizer+SpanningTokens.swift%s/error.offset = offset - 1/error.offset = offset/%ErrorLocationTests"
  "M10%Sources/Magma/Streaming/JSONAdapter+Parallel.swift%s/error.line = error.line.map \{ \\\$0 \+ linesBefore \}/error.line = error.line.map { \\\$0 }/%SplitAndParallelTests"
  "M11%Sources/Magma/Decoding/NumberParsing.swift%s/guard let v = double\(text\), v != 0 \|\| denotesZero\(text\)/guard let v = double(text)/%NumberEdgeTests|PropertyTypeTests"
  "M12%Sources/Magma/Decoding/EventBuilder.swift%s/if options.duplicateKeys == .reject, !noteKeyBytes\(bytes\) \{ return failDuplicateKey\(bytes, nil\) \}//%NumberEdgeTests"
  "M13%Sources/Magma/Decoding/EventBuilder.swift%s/guard components.count > 2 \* keptAtEachEnd/guard components.count > 100_000/%ErrorLocationTests"
  "M14%Sources/Magma/Decoding/Codec.swift%s/if !stored.utf8.elementsEqual\(key.utf8\)/if false/%NumberEdgeTests"
  "M15%Sources/Magma/Streaming/RecordSinks.swift%s/valueStarted \|\| b.depth > depth \|\| b.isSkipping/valueStarted || b.depth > depth/%RecordStreamLimitTests"
  "M16%Sources/Magma/Tokenizer/Tokenizer.swift%s/if error.code == .unexpectedEnd \{ placeCutString\(&error, whole: whole\) \}//%RecordStreamLimitTests"
  "M17%Sources/Magma/Streaming/RecordDecoder.swift%s/\s*defer \{\n\s*consumed \+= bytes.count\n\s*counters.bytes.store\(consumed, ordering: .relaxed\)\n\s*\}//%RecordStreamLimitTests"
  "M18%Sources/Magma/Decoding/EventBuilder.swift%s/\|\| \(index >= 64 && !noteKeyBytes\(bytes\)\)//%NumberEdgeTests"
)

wanted=("$@")
caught=0; missed=(); stale=()
for entry in "${mutations[@]}"; do
    IFS='%' read -r name file substitution filter <<<"$entry"
    if ((${#wanted[@]})) && [[ ! " ${wanted[*]} " == *" $name "* ]]; then continue; fi
    perl -0pi -e "$substitution" "$file"
    if git diff --quiet -- "$file"; then
        echo "$name: did not apply to $file"
        stale+=("$name")
        continue
    fi
    if [[ -n ${DRY_RUN:-} ]]; then
        echo "$name: applies"
        git checkout --quiet -- "$file"
        continue
    fi
    if ! swift build --build-tests >/tmp/mutations-build.log 2>&1; then
        echo "$name: caught (does not compile)"
        caught=$((caught + 1))
    elif swift test --skip-build --filter "$filter" >/tmp/mutations-test.log 2>&1; then
        echo "$name: NOT caught by $filter"
        missed+=("$name")
    else
        echo "$name: caught by $filter"
        caught=$((caught + 1))
    fi
    git checkout --quiet -- "$file"
done
echo "caught $caught; not caught: ${missed[*]:-none}; did not apply: ${stale[*]:-none}"
[[ -n ${DRY_RUN:-} ]] || swift build --build-tests >/dev/null 2>&1
((${#missed[@]} == 0 && ${#stale[@]} == 0))
