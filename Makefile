# Magma: the two commands a new user needs.
#   make bench   the side-by-side benchmark against Foundation's JSON (release build)
#   make test    the test suite
# Both install libyajl-dev first when it is missing.

SWIFT ?= swift
BENCH_ARGS ?=

.PHONY: deps test bench bench-quick

deps:
	@scripts/ensure-deps.sh

test: deps
	$(SWIFT) test

bench: deps
	$(SWIFT) run -c release --package-path Benchmarks compare $(BENCH_ARGS)

bench-quick: deps
	$(SWIFT) run -c release --package-path Benchmarks compare --quick $(BENCH_ARGS)
