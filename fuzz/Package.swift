// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for the PhotoMetadata readers. A separate package so that neither
// `swift build` nor `swift test` at the root (nor CI) ever builds them; `fuzz/run` builds
// them with `-sanitize=fuzzer,address` and `-enable-testing` (the harness uses
// `@testable import` to reach the per-container readers).
let package = Package(
    name: "ShoeboxFuzz",
    dependencies: [.package(name: "Shoebox", path: "..")],
    targets: [
        .executableTarget(
            name: "PhotoMetadataFuzz",
            dependencies: [.product(name: "PhotoMetadata", package: "Shoebox")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
