// swift-tools-version:6.0
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Magma",
    products: [
        .library(name: "Magma", targets: ["Magma"]),
        .executable(name: "magma", targets: ["magma"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
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
            dependencies: ["CYajl", "MagmaMacros"]
        ),
        // The command-line tool: check, extract and generate (Sources/magma/README in `magma --help`).
        .executableTarget(
            name: "magma",
            dependencies: [
                "Magma",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
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
