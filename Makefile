# Magma: the two commands a new user needs.
#   make bench   the side-by-side benchmark against Foundation's JSON, msgspec and orjson (release build;
#                5-8 minutes once built; fails if a Magma row throws or its models differ from JSONDecoder's)
#   make test    the layer check (scripts/check-layers.py: no file names a type of a higher layer; at most 20
#                front-door entry points, each with an example), then the test
#                suite, the server adapters' included (built with the traits Hummingbird and Vapor)
# Both install libyajl-dev first when it is missing.
#
# Also: make bench-quick (the comparison on small inputs, < 1 minute once built, into Benchmarks/results/quick;
#         fails as make bench does; CI runs it),
#       make bench-check (package-benchmark allocation thresholds; fails on a regression),
#       make bench-stream (1 GiB generated on the fly through a pipe, array and NDJSON: peak RSS, MB/s
#         against the same records decoded from memory, and parallel NDJSON, with glibc's malloc and with
#         jemalloc (installs libjemalloc2); ~2 minutes on a quiet
#         machine; not run by CI; STREAM_ARGS="--mib 64" for a short run; a missed target is printed,
#         and fails the run only with STREAM_ARGS=--check),
#       make fuzz (libFuzzer over model decoding, FUZZ_SECONDS, default 60),
#       make fuzz-records (libFuzzer over the streaming record API: layout, error policy, limits
#         and chunking drawn from each input; FUZZ_SECONDS, default 60),
#       make fuzz-readers (libFuzzer, differential: the scanner, yajl, and yajl in pieces must agree on
#         every input, value or error; FUZZ_SECONDS, default 60),
#       make mutations (scripts/mutations.sh: hand-made bugs the suites must catch; ~2 minutes),
#       make sanitizers (the test suite under AddressSanitizer and ThreadSanitizer),
#       make test-spark (magma extract inside Apache Spark, local[2], as Parquet and NDJSON, against one
#         process per file: rows, and each bad line's file, offset and line; installs Java 17 and
#         pyspark when missing; ~3 minutes on a busy 2-core machine),
#       make magma-static (a release `magma` for a Linux machine without Swift, .build-static/magma: the
#         Swift runtime and Foundation linked in with --static-swift-stdlib, yajl from libyajl_s.a),
#       make bench-cli (scripts/bench-cli.sh: magma extract against jq -c and jq -R 'fromjson?' on the
#         generated GitHub corpus, NDJSON and array: MB/s, rows, peak memory, load; not run by CI),
#       make test-server (the server adapters' tests alone, which make test runs last: real Hummingbird
#         and Vapor servers on loopback asked by AsyncHTTPClient, a 100 MB NDJSON upload among them),
#       make bench-server (wrk against a loopback Hummingbird endpoint, JSONDecoder/JSONEncoder beside
#         Magma's adapters: requests/s and latency percentiles; installs wrk; not run by CI),
#       make docs (the DocC archive in .build/docs/Magma.doccarchive; fails on any DocC warning. It
#         calls the toolchain's docc on the symbol graph of the debug build: no plugin, nothing added
#         to the package's dependencies, so `make test` does not pay for it).

SWIFT ?= swift
BENCH_ARGS ?=
STREAM_ARGS ?=

.PHONY: deps bench-peers test test-server bench bench-quick bench-check bench-stream bench-server bench-cli magma-static fuzz fuzz-records fuzz-readers mutations sanitizers test-spark docs
FUZZ_SECONDS ?= 60
DOCC ?= $(shell command -v docc 2>/dev/null || echo $(dir $(shell readlink -f $$(command -v $(SWIFT))))docc)
DOCS_OUT ?= .build/docs/Magma.doccarchive

deps:
	@scripts/ensure-deps.sh

# msgspec and orjson for the benchmark's Python rows (a venv under .build; a note and no rows without python3).
bench-peers:
	@scripts/bench-peers.sh

# The tests build once, with the server adapters' traits (a user's dependency on Magma enables
# none): traits change every module's flags, so every debug build here uses the same ones.
export MAGMA_TRAITS = Hummingbird,Vapor
TRAITS = --traits $(MAGMA_TRAITS)

# The benchmarks' release builds load the debug build's @JSONModel plugin (scripts/macro-plugin.sh;
# MAGMA_MACRO_PLUGIN in Package.swift): swift-syntax is compiled once, in debug, and not again in
# release and for package-benchmark's plugin tools. Should the plugin not build, the variable is
# empty and the benchmark package builds its own.
BENCH_ENV = MAGMA_MACRO_PLUGIN="$$(scripts/macro-plugin.sh)"

# The test bundle is built as a product of its own: the tests depend on a macro, so SwiftPM builds
# their modules for the host, and `--build-tests` would build every library (Vapor's and
# BoringSSL's included) a second time for the target. The CLI's tests run the `magma` binary.
BUILD_TESTS = $(SWIFT) build --product MagmaPackageTests $(TRAITS) && $(SWIFT) build --product magma $(TRAITS)

# The server tests run after the others, one at a time: the upload tests measure the process's memory.
test: deps
	@if command -v python3 >/dev/null; then scripts/check-layers.py; else echo "check-layers: skipped (no python3)"; fi
	$(BUILD_TESTS)
	$(SWIFT) test --skip-build $(TRAITS) --skip MagmaServerTests
	$(SWIFT) test --skip-build $(TRAITS) --no-parallel --filter MagmaServerTests

test-server: deps
	$(BUILD_TESTS)
	$(SWIFT) test --skip-build $(TRAITS) --no-parallel --filter MagmaServerTests

bench-server: deps
	scripts/bench-server.py $(BENCH_ARGS)

bench: deps bench-peers
	$(BENCH_ENV) $(SWIFT) run -c release --package-path Benchmarks compare $(BENCH_ARGS)

bench-quick: deps bench-peers
	$(BENCH_ENV) $(SWIFT) run -c release --package-path Benchmarks compare --quick $(BENCH_ARGS)

bench-stream: deps
	@[ -e /usr/lib/$$(uname -m)-linux-gnu/libjemalloc.so.2 ] || scripts/apt-install.sh libjemalloc2 || echo "libjemalloc2 not installed: no jemalloc row"
	$(BENCH_ENV) $(SWIFT) run -c release --package-path Benchmarks stream-bench $(STREAM_ARGS)

bench-check: deps
	$(BENCH_ENV) $(SWIFT) package --package-path Benchmarks benchmark thresholds check --target MagmaBenchmarks \
		--path "$(CURDIR)/Benchmarks/Thresholds" --no-progress

# yajl's archive as libyajl.a in a folder of its own, named first by a yajl.pc of the same Cflags
# (so nothing is compiled again): the link's -lyajl takes the archive.
magma-static: deps
	mkdir -p .build-static/lib .build-static/pkgconfig
	ln -sf "$$(pkg-config --variable=libdir yajl)/libyajl_s.a" .build-static/lib/libyajl.a
	printf 'Name: yajl\nDescription: yajl, linked statically\nVersion: %s\nCflags: %s\nLibs: -L%s -lyajl\n' \
		"$$(pkg-config --modversion yajl)" "$$(pkg-config --cflags yajl)" "$(CURDIR)/.build-static/lib" > .build-static/pkgconfig/yajl.pc
	PKG_CONFIG_PATH=$(CURDIR)/.build-static/pkgconfig $(SWIFT) build -c release --product magma --static-swift-stdlib
	cp "$$($(SWIFT) build -c release --show-bin-path)/magma" .build-static/magma
	@echo "magma-static: .build-static/magma, which needs only: $$(ldd .build-static/magma | awk '{ print $$1 }' | tr '\n' ' ')"

bench-cli: deps
	scripts/bench-cli.sh

fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

fuzz-records: deps
	FUZZ_TARGET=records scripts/fuzz.sh $(FUZZ_SECONDS)

fuzz-readers: deps
	FUZZ_TARGET=readers scripts/fuzz.sh $(FUZZ_SECONDS)

mutations: deps
	scripts/mutations.sh

sanitizers: deps
	scripts/sanitizers.sh

test-spark: deps
	$(SWIFT) build --product magma $(TRAITS)
	scripts/test-spark.py "$$($(SWIFT) build --show-bin-path $(TRAITS))/magma" "$$(scripts/spark-setup.sh)" .build-spark/test

docs: deps
	$(SWIFT) package dump-symbol-graph --minimum-access-level public
	rm -rf .build/docs && mkdir -p .build/docs/symbols
	cp "$$($(SWIFT) build --show-bin-path)/../symbolgraph"/Magma.symbols.json \
		"$$($(SWIFT) build --show-bin-path)/../symbolgraph"/Magma@*.symbols.json .build/docs/symbols/
	$(DOCC) convert Sources/Magma/Magma.docc --additional-symbol-graph-dir .build/docs/symbols \
		--fallback-display-name Magma --fallback-bundle-identifier Magma \
		--transform-for-static-hosting --warnings-as-errors --output-path $(DOCS_OUT)
	@echo "Docs: $(DOCS_OUT). Read them with: python3 -m http.server -d $(DOCS_OUT) 8000, then open http://localhost:8000/documentation/magma"
