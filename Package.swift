// swift-tools-version:6.1
import CompilerPluginSupport
import PackageDescription

// The server adapters are opt-in through traits (none on by default), so that a plain dependency on
// Magma resolves and builds no NIO, Hummingbird or Vapor (`make test` enables them): a dependency that only a
// disabled trait's targets use is not even fetched. As separate products without traits, every
// client would resolve both frameworks' package graphs.
// MAGMA_MACRO_PLUGIN names a MagmaMacros-tool already built (the Makefile's benchmark targets set it
// to the debug build's): Magma then loads that plugin instead of depending on the macro target, so
// a release build does not compile swift-syntax again (its expansions do not depend on how the
// plugin was compiled). Clients that expand @JSONModel pass the same flag (Benchmarks/Package.swift).
let macroPlugin = Context.environment["MAGMA_MACRO_PLUGIN"].flatMap { $0.isEmpty ? nil : $0 }

let package = Package(
    name: "Magma",
    products: [
        .library(name: "Magma", targets: ["Magma"]),
        .library(name: "MagmaNIO", targets: ["MagmaNIO"]),
        .library(name: "MagmaHummingbird", targets: ["MagmaHummingbird"]),
        .library(name: "MagmaVapor", targets: ["MagmaVapor"]),
        .executable(name: "magma", targets: ["magma"]),
    ],
    traits: [
        .trait(name: "NIO", description: "MagmaNIO: decoding from ByteBuffer and records from an AsyncSequence of ByteBuffer."),
        .trait(name: "Hummingbird", description: "MagmaHummingbird: Hummingbird's RequestDecoder and ResponseEncoder.",
               enabledTraits: ["NIO"]),
        .trait(name: "Vapor", description: "MagmaVapor: Vapor's ContentDecoder and ContentEncoder.", enabledTraits: ["NIO"]),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CYajl",
            path: "CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"])]
        ),
        // The implementation of @JSONModel and its attributes (compiled for the host, run by the compiler).
        .macro(
            name: "MagmaMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "Magma",
            dependencies: macroPlugin == nil ? ["CYajl", "MagmaMacros"] : ["CYajl"],
            swiftSettings: macroPlugin.map { [.unsafeFlags(["-load-plugin-executable", "\($0)#MagmaMacros"])] }
        ),
        // The command-line tool: check, extract and generate (Sources/magma/README in `magma --help`).
        .executableTarget(
            name: "magma",
            dependencies: [
                "Magma",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The server adapters (see the traits above). Their sources are inside `#if TRAIT`: a target
        // cannot itself depend on a trait, so without it each builds as an empty module.
        .target(
            name: "MagmaNIO",
            dependencies: [
                "Magma",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOFoundationCompat", package: "swift-nio", condition: .when(traits: ["NIO"])),
            ]
        ),
        .target(
            name: "MagmaHummingbird",
            dependencies: [
                "Magma", "MagmaNIO",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ]
        ),
        .target(
            name: "MagmaVapor",
            dependencies: [
                "Magma", "MagmaNIO",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
            ]
        ),
        // `make test-server`: real servers on loopback, requests from AsyncHTTPClient.
        .testTarget(
            name: "MagmaServerTests",
            dependencies: [
                "Magma", "MagmaNIO", "MagmaHummingbird", "MagmaVapor",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["NIO"])),
            ]
        ),
        .testTarget(
            name: "MagmaTests",
            dependencies: ["Magma", "magma"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "MagmaMacrosTests",
            dependencies: [
                "MagmaMacros",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
    ]
)
