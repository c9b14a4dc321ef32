# Magma: the two commands a new user needs.
#   make bench   the side-by-side benchmark against Foundation's JSON (release build, ~3 minutes)
#   make test    the test suite
# Both install libyajl-dev first when it is missing.
#
# Also: make bench-quick (the comparison on small inputs, < 1 minute once built; CI runs it),
#       make bench-check (package-benchmark allocation thresholds; fails on a regression),
#       make bench-stream (1 GiB generated on the fly through a pipe, array and NDJSON: peak RSS, MB/s
#         against the same records decoded from memory, and parallel NDJSON; ~2 minutes on a quiet
#         machine; not run by CI; STREAM_ARGS="--mib 64" for a short run),
#       make fuzz (libFuzzer over model decoding, FUZZ_SECONDS, default 60),
#       make fuzz-records (libFuzzer over the streaming record API: layout, error policy, limits
#         and chunking drawn from each input; FUZZ_SECONDS, default 60),
#       make mutations (scripts/mutations.sh: hand-made bugs the suites must catch; ~2 minutes),
#       make sanitizers (the test suite under AddressSanitizer and ThreadSanitizer).

SWIFT ?= swift
BENCH_ARGS ?=
STREAM_ARGS ?=

.PHONY: deps test bench bench-quick bench-check bench-stream fuzz fuzz-records mutations sanitizers
FUZZ_SECONDS ?= 60

deps:
	@scripts/ensure-deps.sh

test: deps
	$(SWIFT) test

bench: deps
	$(SWIFT) run -c release --package-path Benchmarks compare $(BENCH_ARGS)

bench-quick: deps
	$(SWIFT) run -c release --package-path Benchmarks compare --quick $(BENCH_ARGS)

bench-stream: deps
	$(SWIFT) run -c release --package-path Benchmarks stream-bench $(STREAM_ARGS)

bench-check: deps
	$(SWIFT) package --package-path Benchmarks benchmark thresholds check --target MagmaBenchmarks \
		--path "$(CURDIR)/Benchmarks/Thresholds" --no-progress

fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

fuzz-records: deps
	FUZZ_TARGET=records scripts/fuzz.sh $(FUZZ_SECONDS)

mutations: deps
	scripts/mutations.sh

sanitizers: deps
	scripts/sanitizers.sh
