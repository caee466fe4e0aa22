// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "SwiftLite",
  products: [
    .library(name: "SwiftLite", targets: ["SwiftLite"]),
    .library(name: "CSQLite", targets: ["CSQLite"]),
    // For an app's test targets: schema snapshots recorded and checked, migration history
    // checks, schema comparison, temporary databases.
    .library(name: "SwiftLiteTesting", targets: ["SwiftLiteTesting"]),
    .executable(name: "UserDAO", targets: ["UserDAO"]),
    .executable(name: "Contacts", targets: ["Contacts"]),
    .executable(name: "PersonStore", targets: ["PersonStore"]),
    .executable(name: "ExistingDatabase", targets: ["ExistingDatabase"]),
    .executable(name: "School", targets: ["School"]),
    .executable(name: "Sync", targets: ["Sync"]),
    .executable(name: "Notes", targets: ["Notes"]),
    .executable(name: "SwiftLiteBenchmarks", targets: ["SwiftLiteBenchmarks"]),
    .executable(name: "swiftlite-gen", targets: ["swiftlite-gen"]),
  ],
  targets: [
    // The system SQLite library. Only Sources/SwiftLite/Core imports it; its product is for
    // users who call the C API through Connection.withUnsafeHandle.
    .systemLibrary(
      name: "CSQLite",
      path: "Sources/CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
    ),
    .target(
      name: "SwiftLite",
      dependencies: ["CSQLite"],
      path: "Sources/SwiftLite"
    ),

    // Test support for apps: built on SwiftLite's public API only (no C, no @testable).
    .target(
      name: "SwiftLiteTesting",
      dependencies: ["SwiftLite"],
      path: "Sources/SwiftLiteTesting"
    ),

    // Sample: a hand-written DAO on the trio.
    .target(name: "UserDAOSample", dependencies: ["SwiftLite"], path: "Samples/UserDAO/Sources"),
    .executableTarget(
      name: "UserDAO", dependencies: ["UserDAOSample"], path: "Samples/UserDAO/Main"),

    // Sample: a contacts app with hashed passwords (libcrypto, this sample only).
    .systemLibrary(
      name: "CCrypto",
      path: "Samples/Contacts/CCrypto",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
    ),
    .target(
      name: "ContactsSample", dependencies: ["SwiftLite", "CCrypto"],
      path: "Samples/Contacts/Sources"),
    .executableTarget(
      name: "Contacts", dependencies: ["ContactsSample"], path: "Samples/Contacts/Main"),

    // Sample: Codable models with automatic tables and migration.
    .target(
      name: "PersonStoreSample", dependencies: ["SwiftLite"], path: "Samples/PersonStore/Sources"),
    .executableTarget(
      name: "PersonStore", dependencies: ["PersonStoreSample"], path: "Samples/PersonStore/Main"),

    // Sample: models mapped onto a database another program made, read-only reads, adoption.
    .target(
      name: "ExistingDatabaseSample", dependencies: ["SwiftLite"],
      path: "Samples/ExistingDatabase/Sources", resources: [.copy("music-store.sql")]),
    .executableTarget(
      name: "ExistingDatabase", dependencies: ["ExistingDatabaseSample"],
      path: "Samples/ExistingDatabase/Main"),

    // Sample: grades, classes and people with foreign keys, queries and relations.
    .target(
      name: "SchoolSample", dependencies: ["SwiftLite"], path: "Samples/School/Sources",
      resources: [.copy("MigrationSnapshots")]),
    .executableTarget(name: "School", dependencies: ["SchoolSample"], path: "Samples/School/Main"),

    // Sample: two devices that edit offline and sync through changesets in a folder.
    .target(name: "SyncSample", dependencies: ["SwiftLite"], path: "Samples/Sync/Sources"),
    .executableTarget(name: "Sync", dependencies: ["SyncSample"], path: "Samples/Sync/Main"),

    // Sample: a notes app through four releases, upgraded and installed fresh to one schema.
    .target(
      name: "NotesSample", dependencies: ["SwiftLite", "SwiftLiteTesting"],
      path: "Samples/Notes/Sources", resources: [.copy("MigrationSnapshots")]),
    .executableTarget(name: "Notes", dependencies: ["NotesSample"], path: "Samples/Notes/Main"),

    // Benchmarks: SwiftLite against the raw C API in the same process.
    .executableTarget(
      name: "SwiftLiteBenchmarks",
      dependencies: ["SwiftLite", "CSQLite"],
      path: "Benchmarks"
    ),

    // swiftlite-gen: Swift models written from an existing database's schema.
    .target(
      name: "SwiftLiteCodeGen", dependencies: ["SwiftLite"], path: "Sources/SwiftLiteCodeGen"),
    .executableTarget(
      name: "swiftlite-gen", dependencies: ["SwiftLiteCodeGen"], path: "Sources/swiftlite-gen"),

    // A second process for the tests that write one file from two processes.
    .executableTarget(
      name: "SwiftLiteProcessHelper", dependencies: ["SwiftLite"], path: "Tests/ProcessHelper"),

    // A VFS that simulates power loss, in C: for the power-loss tests only.
    .target(
      name: "PowerLossVFS", path: "Tests/PowerLossVFS",
      linkerSettings: [.linkedLibrary("sqlite3")]),

    .testTarget(
      name: "SwiftLiteTests",
      dependencies: ["SwiftLite", "SwiftLiteTesting", "CSQLite", "PowerLossVFS"],
      path: "Tests/SwiftLiteTests"),
    .testTarget(
      name: "SwiftLiteTestingTests", dependencies: ["SwiftLite", "SwiftLiteTesting"],
      path: "Tests/SwiftLiteTestingTests",
      resources: [.copy("Fixtures"), .copy("MigrationSnapshots")]),
    .testTarget(
      name: "SamplesTests",
      dependencies: [
        "SwiftLite", "SwiftLiteTesting", "UserDAOSample", "ContactsSample", "PersonStoreSample",
        "ExistingDatabaseSample", "SchoolSample", "SyncSample", "NotesSample",
      ],
      path: "Tests/SamplesTests"
    ),
    // Every Swift example of the README, the DocC articles and the doc comments, written here by
    // Scripts/extract-examples.swift and run twice each in a fresh folder.
    .testTarget(
      name: "DocExamplesTests",
      dependencies: ["SwiftLite", "SwiftLiteTesting", "SwiftLiteCodeGen", "CSQLite"],
      path: "Tests/DocExamplesTests", resources: [.copy("MigrationSnapshots")]),
    // The generator's golden output, compiled: models generated from Fixtures/shop.sql.
    .testTarget(
      name: "CodeGenTests", dependencies: ["SwiftLite", "SwiftLiteCodeGen"],
      path: "Tests/CodeGenTests", exclude: ["Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)
