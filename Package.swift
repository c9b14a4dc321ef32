// swift-tools-version:6.0
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Magma",
    products: [
        .library(name: "Magma", targets: ["Magma"]),
    ],
    dependencies: [
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
        .testTarget(
            name: "MagmaTests",
            dependencies: ["Magma"],
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
