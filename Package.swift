// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Magma",
    products: [
        .library(name: "Magma", targets: ["Magma"]),
        .executable(name: "magma", targets: ["magma"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CYajl",
            path: "CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"])]
        ),
        .target(
            name: "Magma",
            dependencies: ["CYajl"]
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
    ]
)
