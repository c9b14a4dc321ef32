// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Magma",
    products: [
        .library(name: "Magma", targets: ["Magma"]),
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
        .testTarget(
            name: "MagmaTests",
            dependencies: ["Magma"],
            resources: [.copy("Fixtures")]
        ),
    ]
)
