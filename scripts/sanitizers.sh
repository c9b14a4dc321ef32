#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer (with LeakSanitizer) and under ThreadSanitizer.
#
#   scripts/sanitizers.sh [address] [thread]     (default: both, one after the other)
#
# Each sanitizer builds in its own scratch path (.build-asan, .build-tsan) so neither disturbs the
# ordinary .build; each run's output is kept in <scratch>/test.log. Runs at nice 19: each one
# rebuilds the package and its tests instrumented, several minutes on two cores.
# Fuzz/lsan.supp lists the leak reports known to be false positives (see the file).
# Exit status: 0 when every run passed and printed no sanitizer report.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/ensure-deps.sh" >/dev/null 2>&1 || true
[ $# -gt 0 ] || set -- address thread

# Swift's crash backtracer and the sanitizers both want the dying process: let the sanitizer report.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export TSAN_OPTIONS="halt_on_error=0${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

status=0
for sanitizer in "$@"; do
    case $sanitizer in
        address) scratch=$root/.build-asan ;;
        thread) scratch=$root/.build-tsan ;;
        *) echo "unknown sanitizer: $sanitizer (address or thread)" >&2; exit 2 ;;
    esac
    mkdir -p "$scratch"
    log=$scratch/test.log
    echo "== swift test --sanitize=$sanitizer (scratch $scratch, log $log)"
    start=$(date +%s)
    nice -n 19 swift test --package-path "$root" --scratch-path "$scratch" --sanitize="$sanitizer" >"$log" 2>&1
    rc=$?
    echo "   exit $rc after $(( $(date +%s) - start )) s"
    if grep -qE '^(==[0-9]+==ERROR|WARNING: ThreadSanitizer|SUMMARY: (Address|Leak|Thread)Sanitizer)' "$log"; then
        echo "   sanitizer reports (first lines):"
        grep -nE -A12 '^(==[0-9]+==ERROR|WARNING: ThreadSanitizer)' "$log" | head -40 | sed 's/^/   /'
        grep -E '^SUMMARY: ' "$log" | sort | uniq -c | sed 's/^/   /'
        status=1
    else
        echo "   no sanitizer report"
    fi
    grep -E '^(✔|✘|━) Test run|Executed [0-9]+ tests' "$log" | tail -2 | sed 's/^/   /'
    [ "$rc" -eq 0 ] || status=1
done
exit $status
