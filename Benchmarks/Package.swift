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
//   server-bench        a loopback Hummingbird server for `make bench-server` (wrk): with the Server
//                       trait only, so that the other benchmarks resolve and build no server code
// With MAGMA_MACRO_PLUGIN set (see ../Package.swift), the targets that expand @JSONModel load that
// plugin themselves: the Makefile sets it so that swift-syntax is not compiled for this package.
let macroSettings: [SwiftSetting] = Context.environment["MAGMA_MACRO_PLUGIN"].flatMap {
    $0.isEmpty ? nil : [.unsafeFlags(["-load-plugin-executable", "\($0)#MagmaMacros"])]
} ?? []

let package = Package(
    name: "MagmaBenchmarks",
    platforms: [.macOS(.v15)],
    traits: [
        .trait(name: "Server", description: "server-bench: Hummingbird with JSONDecoder/JSONEncoder and with Magma's adapters."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(name: "Magma", path: "..", traits: [.trait(name: "Hummingbird", condition: .when(traits: ["Server"]))]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "Corpus",
            dependencies: [.product(name: "Magma", package: "Magma")],
            swiftSettings: macroSettings
        ),
        .target(name: "CAllocationCounter"),
        .executableTarget(
            name: "compare",
            dependencies: [
                "Corpus",
                "CAllocationCounter",
                .product(name: "Magma", package: "Magma"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: macroSettings
        ),
        .executableTarget(
            name: "stream-bench",
            dependencies: [
                "Corpus",
                .product(name: "Magma", package: "Magma"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: macroSettings
        ),
        .executableTarget(
            name: "server-bench",
            dependencies: [
                "Corpus",
                .product(name: "Magma", package: "Magma"),
                .product(name: "MagmaHummingbird", package: "Magma", condition: .when(traits: ["Server"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: macroSettings
        ),
        .executableTarget(
            name: "MagmaBenchmarks",
            dependencies: [
                "Corpus",
                .product(name: "Magma", package: "Magma"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/MagmaBenchmarks",
            swiftSettings: macroSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
