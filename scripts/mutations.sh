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
  "M3%Sources/Magma/Streaming/RecordDecoder+Records.swift%s/(\s*)(guard let p = line.baseAddress, JSONScanner.blank\(p, p \+ line.count\) < p \+ line.count else \{ return \})\n\s*lineRecords \+= 1/\$1lineRecords += 1\$1\$2/%MutationGapTests|NDJSONLineTests"
  "M4%Sources/Magma/Mapping/Map.swift%s/merge = \{ \\\$0\[keyPath: property\] = \\\$1\[keyPath: property\] \}(\n\s*remake = nil)/merge = { _, _ in }\$1/%MergeUpdateTests"
  "M5%Sources/Magma/Decoding/JSONWriter+Strings.swift%s/escapesNonASCII \? 0xA0 : 0x20\)/escapesNonASCII ? 0xA0 : 0x1F)/%MutationGapTests"
  "M6%Sources/Magma/Decoding/EventBuilder.swift%s/depth \+ skipDepth >= options.maxDepth/depth + skipDepth > options.maxDepth/g%OptionsTests|RecordStreamLimitTests"
  "M7%Sources/Magma/Streaming/RecordDecoder.swift%s/receiver.holds = true/receiver.holds = false/%RecordStreamLimitTests"
  "M8%Sources/Magma/Decoding/RecoverySink.swift%s/, code != \.depthLimitExceeded else/ else/%RecordStreamLimitTests"
  "M9%Sources/Magma/Tokenizer/CommentBlanker.swift%s/\[final \? UInt8\(ascii: \x22\/\x22\) : 0x20\]/[UInt8(ascii: \x22\/\x22)]/%ConformanceTests"
  "M10%Sources/Magma/Streaming/JSONAdapter+Parallel.swift%s/error.line.map \{ \\\$0 \+ lines \}/error.line.map { \\\$0 }/%SplitAndParallelTests"
  "M11%Sources/Magma/Decoding/NumberParsing+Floating.swift%s/guard let v = double\(text\), v != 0 \|\| denotesZero\(text\)/guard let v = double(text)/%NumberEdgeTests|PropertyTypeTests"
  "M12%Sources/Magma/Decoding/EventBuilder.swift%s/if options.duplicateKeys == .reject, !noteKeyBytes\(bytes\) \{ return failDuplicateKey\(bytes, nil\) \}//%NumberEdgeTests"
  "M13%Sources/Magma/Decoding/JSONPath.swift%s/guard components.count > 2 \* keptAtEachEnd/guard components.count > 100_000/%ErrorLocationTests"
  "M14%Sources/Magma/Decoding/Codec+Containers.swift%s/if !stored.utf8.elementsEqual\(key.utf8\)/if false/%NumberEdgeTests"
  "M15%Sources/Magma/Streaming/RecordSinks.swift%s/valueStarted \|\| b.depth > depth \|\| b.isSkipping/valueStarted || b.depth > depth/%RecordStreamLimitTests"
  "M16%Sources/Magma/Tokenizer/Tokenizer.swift%s/let stray = allowComments \? nil : Tokenizer.firstFormFeedOrVerticalTab\(chunk\)/let stray: Int? = nil/%ConformanceTests|ErrorLocationTests"
  "M17%Sources/Magma/Streaming/RecordDecoder.swift%s/\n\s*consumed \+= bytes.count\n(\s*counters.bytes.store)/\n\$1/%RecordStreamLimitTests"
  "M18%Sources/Magma/Decoding/EventBuilder.swift%s/\|\| \(index >= 64 && !noteKeyBytes\(bytes\)\)//%NumberEdgeTests"
)

# The traits of make's builds (MAGMA_TRAITS, which make exports), so that no build here pays for
# another configuration.
traits=(--traits "${MAGMA_TRAITS:-Hummingbird,Vapor}")

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
    if ! swift build --build-tests "${traits[@]}" >/tmp/mutations-build.log 2>&1; then
        echo "$name: caught (does not compile)"
        caught=$((caught + 1))
    elif swift test --skip-build "${traits[@]}" --filter "$filter" >/tmp/mutations-test.log 2>&1; then
        echo "$name: NOT caught by $filter"
        missed+=("$name")
    else
        echo "$name: caught by $filter"
        caught=$((caught + 1))
    fi
    git checkout --quiet -- "$file"
done
echo "caught $caught; not caught: ${missed[*]:-none}; did not apply: ${stale[*]:-none}"
[[ -n ${DRY_RUN:-} ]] || swift build --build-tests "${traits[@]}" >/dev/null 2>&1
((${#missed[@]} == 0 && ${#stale[@]} == 0))
