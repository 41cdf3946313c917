// swift-tools-version:6.1
import PackageDescription

/// Settings shared by every Swift target: Swift 6 language mode plus the upcoming
/// features that make dependencies and existentials explicit.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Shoebox",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "shoebox", targets: ["shoebox"]),
        .library(name: "WallClock", targets: ["WallClock"]),
        .library(name: "PhotoMetadata", targets: ["PhotoMetadata"]),
        .library(name: "LibraryIndex", targets: ["LibraryIndex"]),
        .library(name: "Timeline", targets: ["Timeline"]),
        .library(name: "ZoomMapping", targets: ["ZoomMapping"]),
        .library(name: "GalleryLayout", targets: ["GalleryLayout"]),
        .library(name: "PhotoLibrary", targets: ["PhotoLibrary"]),
        .library(name: "Thumbnails", targets: ["Thumbnails"]),
        .library(name: "Places", targets: ["Places"]),
        .library(name: "Duplicates", targets: ["Duplicates"]),
        .library(name: "Corrections", targets: ["Corrections"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // C layer: libexif through pkg-config, with a shim for its macros.
        .systemLibrary(
            name: "CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]
        ),
        // libexif's allocations from a buffer per thread, through its allocator hooks.
        .target(name: "CExifArena", dependencies: ["CExif"]),

        // zlib, for the compressed text chunks in which PNG writers such as GIMP keep EXIF.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // OpenSSL's libcrypto, for the SHA-256 of files that share a size (duplicates, their manifest).
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),

        // libvips, loaded with dlopen on the first thumbnail (libvips42 at run time, no headers
        // to build), with a wrapper for each of its variadic calls.
        .target(name: "CVips"),

        // SQLite's process-wide settings (its variadic `sqlite3_config`).
        .target(name: "CSQLiteTuning", linkerSettings: [.linkedLibrary("sqlite3")]),

        // Child processes started by posix_spawn, keeping none of this process's descriptors
        // (Foundation's Process crashes past some 1,360 of them; see ChildProcess).
        .target(name: "CSpawn"),

        // Linux file calls without a Swift declaration (renameat2, O_TMPFILE, O_PATH), for moving
        // files under a folder without following symbolic links (NoFollowFolder).
        .target(name: "CFileCalls"),
        .target(name: "Spawn", dependencies: ["CSpawn"], swiftSettings: strictSettings),

        // Pure: the local date-time of a capture and the calendar arithmetic behind it.
        .target(name: "WallClock", swiftSettings: strictSettings),

        // Reads one file: format, capture date with its source, pixel and display size.
        .target(
            name: "PhotoMetadata",
            dependencies: ["WallClock", "CExif", "CExifArena", "CZlib"],
            swiftSettings: strictSettings
        ),

        // A seedable random generator, so generated libraries are the same on every run.
        .target(name: "SeededRandom", swiftSettings: strictSettings),

        // Builds small, valid image files with chosen EXIF, for tests and benchmarks.
        .target(name: "PhotoFixtures", dependencies: ["SeededRandom", "WallClock", "Spawn"], swiftSettings: strictSettings),

        // Pure: perceptual hashes, duplicate groups by multi-index hashing, the one to keep, stacks.
        .target(name: "Duplicates", swiftSettings: strictSettings),

        // Pure: corrections of dates, zones and positions planned as XMP sidecar merges.
        .target(name: "Corrections", dependencies: ["WallClock", "PhotoMetadata", "Places"], swiftSettings: strictSettings),

        // Crawler and SQLite store.
        .target(
            name: "LibraryIndex",
            dependencies: [
                "PhotoMetadata",
                "Corrections",
                "WallClock",
                "Places",
                "Duplicates",
                "CCrypto",
                "CFileCalls",
                "CSQLiteTuning",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The raw `sqlite3_step` loop that loads a million stamps without a row object each.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),

        // Pure: fine and coarse date sections, stable capped sampling.
        .target(name: "Timeline", dependencies: ["WallClock"], swiftSettings: strictSettings),

        // Pure: grid metrics and index-path / content-offset translation between levels.
        .target(name: "ZoomMapping", dependencies: ["Timeline", "GalleryLayout"], swiftSettings: strictSettings),

        // Pure: geometry of the seed photo browsers.
        .target(name: "GalleryLayout", swiftSettings: strictSettings),

        // Nearest GeoNames place (city, region, country, IANA zone) for a position, from the table
        // `scripts/places-data` writes once; no network at run time.
        .target(name: "Places", dependencies: ["WallClock"], swiftSettings: strictSettings),

        // Thumbnails and previews through libvips, in a disk cache.
        .target(name: "Thumbnails", dependencies: ["CVips", "PhotoMetadata", "Duplicates", "Spawn"], swiftSettings: strictSettings),

        // What every front end shares: configuration, default paths, timeline snapshots with their
        // zoom maps, the JSON contract, errors with codes.
        .target(
            name: "PhotoLibrary",
            dependencies: ["LibraryIndex", "Timeline", "ZoomMapping", "GalleryLayout", "WallClock", "Duplicates"],
            swiftSettings: strictSettings
        ),

        // The HTTP API and the web viewer's files (Hummingbird 2).
        .target(
            name: "ShoeboxServer",
            dependencies: [
                "PhotoLibrary", "Thumbnails", "LibraryIndex", "Timeline", "ZoomMapping", "GalleryLayout", "CZlib", "Places", "Duplicates", "Corrections",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // The viewer's files are built into the executable (EmbedViewer), so it serves them alone.
            exclude: ["Viewer"],
            swiftSettings: strictSettings,
            plugins: ["EmbedViewer"]
        ),

        // Writes the viewer's files into a Swift source, for the EmbedViewer build plugin.
        .executableTarget(name: "embed-viewer", path: "Tools/EmbedViewer", swiftSettings: strictSettings),
        .plugin(name: "EmbedViewer", capability: .buildTool(), dependencies: ["embed-viewer"]),

        // Builds VERSION (beside this file) into the command line, for `shoebox --version`.
        .plugin(name: "EmbedVersion", capability: .buildTool()),

        // The command-line interface, as a library so tests can drive it.
        .target(
            name: "ShoeboxCLI",
            dependencies: [
                "PhotoLibrary", "ShoeboxServer", "Thumbnails", "LibraryIndex", "Timeline", "ZoomMapping", "WallClock", "Places", "Duplicates",
                "Corrections",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings,
            plugins: ["EmbedVersion"]
        ),
        .executableTarget(
            name: "shoebox",
            dependencies: ["ShoeboxCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings
        ),

        // Writes `testdata/` from `DemoLibrary`.
        .executableTarget(
            name: "make-testdata",
            dependencies: ["PhotoFixtures"],
            path: "Tools/MakeTestdata",
            swiftSettings: strictSettings
        ),

        // Writes a synthetic library of N photos straight into SQLite, for benchmarks and viewer tests.
        .executableTarget(
            name: "make-library",
            dependencies: ["LibraryIndex", "PhotoFixtures", "PhotoLibrary", "PhotoMetadata", "SeededRandom", "Timeline", "WallClock"],
            path: "Tools/MakeLibrary",
            swiftSettings: strictSettings
        ),

        // Random libraries packed by the Swift packing, as JSON, for the viewer's agreement test.
        .executableTarget(
            name: "packing-vectors",
            dependencies: ["SeededRandom", "ZoomMapping"],
            path: "Tools/PackingVectors",
            swiftSettings: strictSettings
        ),

        // Benchmarks: programs with numbers, kept apart from the tests.
        .executableTarget(
            name: "IndexBenchmark",
            dependencies: ["LibraryIndex", "PhotoLibrary", "PhotoMetadata", "PhotoFixtures", "Places"],
            path: "Benchmarks/IndexBenchmark",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ServerBenchmark",
            path: "Benchmarks/ServerBenchmark",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "MapBenchmark",
            dependencies: ["LibraryIndex", "PhotoMetadata", "SeededRandom", "WallClock"],
            path: "Benchmarks/MapBenchmark",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "TimelineBenchmark",
            dependencies: ["SeededRandom", "Timeline", "ZoomMapping", "GalleryLayout", "WallClock"],
            path: "Benchmarks/TimelineBenchmark",
            swiftSettings: strictSettings
        ),

        .executableTarget(
            name: "SoakBenchmark",
            dependencies: ["PhotoFixtures", "SeededRandom", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/SoakBenchmark",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "PlacesBenchmark",
            dependencies: ["Places", "SeededRandom"],
            path: "Benchmarks/PlacesBenchmark",
            exclude: ["landmarks.txt"],
            swiftSettings: strictSettings
        ),

        .executableTarget(
            name: "ThumbnailBenchmark",
            dependencies: ["Thumbnails", "CVips", "SeededRandom"],
            path: "Benchmarks/ThumbnailBenchmark",
            swiftSettings: strictSettings
        ),

        .executableTarget(
            name: "MediaBenchmark",
            dependencies: ["Thumbnails"],
            path: "Benchmarks/MediaBenchmark",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "StillsBenchmark",
            dependencies: ["Thumbnails", "CVips", "PhotoFixtures"],
            path: "Benchmarks/StillsBenchmark",
            swiftSettings: strictSettings
        ),

        .executableTarget(
            name: "AdjustBenchmark",
            dependencies: ["PhotoFixtures", "Spawn"],
            path: "Benchmarks/AdjustBenchmark",
            swiftSettings: strictSettings
        ),

        .executableTarget(
            name: "DuplicatesBenchmark",
            dependencies: ["Duplicates", "Thumbnails", "SeededRandom", "PhotoFixtures", "PhotoMetadata", "WallClock"],
            path: "Benchmarks/DuplicatesBenchmark",
            swiftSettings: strictSettings
        ),

        .testTarget(name: "DuplicatesTests", dependencies: ["Duplicates", "SeededRandom"], swiftSettings: strictSettings),
        .testTarget(name: "CorrectionsTests", dependencies: ["Corrections", "PhotoMetadata", "WallClock", "Places", "Spawn"], swiftSettings: strictSettings),
        .testTarget(name: "WallClockTests", dependencies: ["WallClock"], swiftSettings: strictSettings),
        .testTarget(name: "PhotoMetadataTests", dependencies: ["PhotoMetadata", "CExif", "CExifArena", "WallClock", "PhotoFixtures", "SeededRandom", "Spawn"], swiftSettings: strictSettings),
        .testTarget(
            name: "LibraryIndexTests",
            dependencies: ["LibraryIndex", "Duplicates", "WallClock", "PhotoFixtures", "Places", "Spawn", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: strictSettings),
        .testTarget(name: "TimelineTests", dependencies: ["Timeline", "WallClock", "SeededRandom"], swiftSettings: strictSettings),
        .testTarget(name: "ZoomMappingTests", dependencies: ["ZoomMapping", "GalleryLayout", "PhotoFixtures", "WallClock", "SeededRandom"], swiftSettings: strictSettings),
        .testTarget(name: "GalleryLayoutTests", dependencies: ["GalleryLayout", "SeededRandom"], swiftSettings: strictSettings),
        .testTarget(name: "PlacesTests", dependencies: ["Places", "WallClock"], swiftSettings: strictSettings),
        // Starts libvips before the test runner's threads do (see LibvipsFirst.c).
        .target(name: "LibvipsFirst", dependencies: ["CVips"], path: "Tests/LibvipsFirst"),
        .testTarget(name: "ThumbnailsTests", dependencies: ["Thumbnails", "PhotoMetadata", "PhotoFixtures", "LibvipsFirst", "Duplicates", "Spawn"], swiftSettings: strictSettings),
        .testTarget(
            name: "ShoeboxServerTests",
            dependencies: [
                "ShoeboxServer", "PhotoLibrary", "LibraryIndex", "PhotoMetadata", "PhotoFixtures", "SeededRandom", "shoebox", "Places", "Timeline",
                "LibvipsFirst", "Duplicates", "Spawn",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ShoeboxCLITests",
            dependencies: [
                "ShoeboxCLI", "shoebox", "LibraryIndex", "PhotoLibrary", "PhotoMetadata", "Timeline", "ZoomMapping",
                "PhotoFixtures", "SeededRandom", "Places", "Thumbnails", "LibvipsFirst", "Spawn", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
