// swift-tools-version:6.1
import PackageDescription

// Magma's benchmark package, laid out as swift-nio's and swift-foundation's are: package-benchmark
// suites under Benchmarks/<Name>/, shared code under Sources/. See README.md.
//
//   Corpus              the generated GitHub-issues corpus, the models of every corpus (Codable and
//                       Magma mappings), the JSONSerialization + hand-mapping peers, and the
//                       process helpers compare and stream-bench share (Support/)
//   CAllocationCounter  allocator shims that let `compare` count allocations in-process
//   compare             the side-by-side comparison a user runs (MB/s, allocations, peak memory)
//   stream-bench        the 1 GiB streaming measurements: through a pipe, against in-memory, parallel
//   MagmaBenchmarks     package-benchmark suite with allocation thresholds for CI
let package = Package(
    name: "MagmaBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Magma", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "Corpus",
            dependencies: [.product(name: "Magma", package: "Magma")]
        ),
        .target(name: "CAllocationCounter"),
        .executableTarget(
            name: "compare",
            dependencies: [
                "Corpus",
                "CAllocationCounter",
                .product(name: "Magma", package: "Magma"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "stream-bench",
            dependencies: [
                "Corpus",
                .product(name: "Magma", package: "Magma"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "MagmaBenchmarks",
            dependencies: [
                "Corpus",
                .product(name: "Magma", package: "Magma"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/MagmaBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
