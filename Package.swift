// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Strata",
    // Every Apple platform. GRDB 7 goes back to iOS 13 / macOS 10.15 / tvOS 13 / watchOS 7 and
    // PostgresNIO to macOS 10.15, but the runtime's public API uses Swift's `Duration` and
    // `ContinuousClock` (migration progress), which need macOS 13, iOS 16, tvOS 16, watchOS 9.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "strata", targets: ["strata"]),
        // What generated code imports: the shared runtime, and one module per database.
        .library(name: "StrataRuntime", targets: ["StrataRuntime"]),
        .library(name: "StrataSQLite", targets: ["StrataSQLite"]),
        .library(name: "StrataPostgres", targets: ["StrataPostgres"]),
        // Moving the rows of a Core Data store into a Strata database (an app's first launch).
        .library(name: "StrataCoreDataStore", targets: ["StrataCoreDataStore"]),
        .plugin(name: "StrataPlugin", targets: ["StrataPlugin"]),
        .plugin(name: "StrataCommand", targets: ["StrataCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        // `swift package generate-documentation --target StrataSQLite` (the DocC catalog); a
        // command plugin only, nothing of it is linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // How each scalar is stored (column encodings, SQLite dates, PostgreSQL timestamps) and how
        // identifiers are quoted: shared by the DDL and the runtime so they cannot drift.
        .target(name: "StrataStorage"),
        // Reading SQL text: the lexer, script splitting, and what a PostgreSQL migration script runs
        // outside its transaction (leading steps, batched backfills). The generator, the PostgreSQL
        // runtime and the database tools; the SQLite runtime does not need it.
        .target(name: "StrataSQLText", dependencies: ["StrataStorage"]),
        // Checksums: SHA-256, normalised text, and the migration ledger's checksum (generator and runtime).
        .target(name: "StrataChecksum"),
        // The mapping `strata import coredata` writes (coredata-mapping.json) and StrataCoreDataStore reads.
        .target(name: "StrataCoreDataMapping"),
        // The release and runtime API version: what generated files name and the runtime checks.
        .target(name: "StrataRelease"),
        // The generator pipeline: parse -> validate -> model -> diff/plan -> render. Named SQL
        // queries are checked on an in-memory SQLite database through the C library alone
        // (GRDBSQLite is GRDB's system-library module for libsqlite3, not GRDB): the plugins'
        // generator still builds no database client.
        .target(
            name: "StrataCore",
            dependencies: [
                "StrataStorage",
                "StrataSQLText",
                "StrataChecksum",
                "StrataCoreDataMapping",
                "StrataRelease",
                .product(name: "Yams", package: "Yams"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // `strata import coredata`: a Core Data model's versions (.xcdatamodeld, .momd) become
        // Strata version files and the coredata-mapping.json that StrataCoreDataStore follows.
        .target(
            name: "StrataCoreDataImport",
            dependencies: ["StrataCore", "StrataCoreDataMapping"]
        ),
        // The runtime shared by every database: records, columns, filters, sorts, migrations.
        .target(name: "StrataRuntime", dependencies: ["StrataStorage", "StrataChecksum", "StrataRelease"]),
        // Generated SQLite code at run time, on GRDB: what an app that embeds SQLite imports.
        .target(
            name: "StrataSQLite",
            dependencies: [
                "StrataRuntime",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Moves a Core Data store's rows into a Strata database, following the mapping that
        // `strata import coredata` wrote; SQLite (GRDB) only.
        .target(
            name: "StrataCoreDataStore",
            dependencies: [
                "StrataSQLite", "StrataStorage", "StrataCoreDataMapping", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Generated PostgreSQL code at run time, on PostgresNIO: what a server imports (its
        // repositories, and the migrator that `strata migrate --postgres` uses too).
        .target(
            name: "StrataPostgres",
            dependencies: [
                "StrataRuntime",
                "StrataStorage",
                "StrataSQLText",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // The commands that need the generator alone (generate, check, lint, plan, and the plugins'
        // build-plugin and generate-models), shared by `strata` and `strata-generator`.
        .target(
            name: "StrataCLI",
            dependencies: [
                "StrataCore", "StrataCoreDataImport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The `strata` command-line tool: the generator commands, plus migrate and verify.
        .executableTarget(
            name: "strata",
            dependencies: [
                "StrataCLI",
                "StrataCore",
                "StrataCoreDataMapping",
                "StrataRelease",
                "StrataRuntime",
                "StrataSQLite",
                "StrataPostgres",
                "StrataIntrospection",
                "StrataVerification",
                "StrataDatabaseImport",
                "StrataCoreDataStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // What the plugins run: `strata` without migrate and verify, so that a package using them
        // builds no database client for the host.
        .executableTarget(
            name: "strata-generator",
            dependencies: ["StrataCLI", "StrataCore", "StrataRelease", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Build tool plugin: a target's strata.yaml names its schemas; its Swift is generated at build time.
        .plugin(
            name: "StrataPlugin",
            capability: .buildTool(),
            dependencies: ["strata-generator"]
        ),
        // `swift package --allow-writing-to-package-directory strata-generate [--check] [--target T]`.
        .plugin(
            name: "StrataCommand",
            capability: .command(
                intent: .custom(verb: "strata-generate", description: "Rewrite Generated/ and strata.lock from the schemas"),
                permissions: [.writeToPackageDirectory(reason: "Writes Generated/ and the strata.lock of each model")]
            ),
            dependencies: ["strata-generator"]
        ),
        // The TODO app's model, generated at build time from Schemas/MyTODO by StrataPlugin
        // (Sources/MyTODO/strata.yaml). Generated/MyTODO/Swift is the committed copy, for review.
        .target(
            name: "MyTODO",
            dependencies: ["StrataSQLite", "StrataPostgres"],
            plugins: ["StrataPlugin"]
        ),
        .testTarget(
            name: "StrataCoreTests",
            dependencies: [
                "StrataCore", "StrataCoreDataImport", "StrataChecksum", "StrataCoreDataMapping", "StrataRelease",
                "StrataTestSupport", "strata", "strata-generator",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The reference (golden) Swift of the Showcase fixture model, compiled and exercised.
        .testTarget(
            name: "ShowcaseModelTests",
            dependencies: ["StrataSQLite", "StrataPostgres"]
        ),
        // Reads a live schema back from SQLite and PostgreSQL, derives the expected one from a
        // model, compares them (drift, baselines, canonical SQL); PostgreSQL sessions from a URL.
        // Used by `strata migrate`, `strata drift`, the verifier, the database importer and the tests.
        .target(
            name: "StrataIntrospection",
            dependencies: [
                "StrataCore",
                "StrataStorage",
                "StrataSQLText",
                "StrataSQLite",
                "StrataPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // `strata verify`: every migration run on scratch SQLite and PostgreSQL databases, seeded
        // rows, and the old app's statements checked against the new schema.
        .target(
            name: "StrataVerification",
            dependencies: [
                "StrataIntrospection",
                "StrataCore",
                "StrataStorage",
                "StrataSQLText",
                "StrataSQLite",
                "StrataPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // `strata import database`: the tables of an existing SQLite or PostgreSQL database become a
        // Strata model.
        .target(
            name: "StrataDatabaseImport",
            dependencies: [
                "StrataIntrospection",
                "StrataCore",
                "StrataStorage",
                "StrataSQLText",
                "StrataSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Test helpers shared by the tests: a throwaway PostgreSQL server, temporary files removed at exit.
        .target(
            name: "StrataTestSupport",
            dependencies: [
                "StrataIntrospection", "StrataCore", "StrataSQLite", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
            ],
            path: "Tests/StrataTestSupport"
        ),
        // The SQL DDL: reference files, and every SQL file executed on SQLite and PostgreSQL.
        .testTarget(
            name: "StrataSQLTests",
            dependencies: [
                "StrataCore",
                "StrataStorage",
                "StrataRelease",
                "StrataIntrospection",
                "StrataVerification",
                "StrataTestSupport",
                "StrataDateSamples",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Fixtures"]
        ),
        // Migrations on real databases: verification, the TODO app's history, failures that roll back.
        .testTarget(
            name: "StrataMigrationTests",
            dependencies: [
                "StrataCore",
                "StrataIntrospection",
                "StrataVerification",
                "StrataStorage",
                "StrataSQLText",
                "StrataChecksum",
                "StrataRuntime",
                "StrataSQLite",
                "StrataPostgres",
                "StrataTestSupport",
                "StrataDateSamples",
                "strata",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // The dates every round-trip test stores: those of issue 16, edges, 10,000 pseudo-random ones.
        .target(name: "StrataDateSamples", path: "Tests/StrataDateSamples"),
        .testTarget(
            name: "MyTODOTests",
            dependencies: ["MyTODO"]
        ),
        // Runtime: the migration ledger, column coding, the filter/sort DSL (no generated code).
        .testTarget(
            name: "StrataRuntimeTests",
            dependencies: ["StrataSQLite", "StrataStorage", "StrataDateSamples", "StrataTestSupport"]
        ),
        // StrataCoreDataImport: `strata import coredata` of the Core Data fixtures (Tests/Fixtures/CoreData),
        // `contents` files, and `strata import coredata-store` on imported models.
        .testTarget(
            name: "StrataCoreDataImportTests",
            dependencies: [
                "StrataCoreDataImport", "StrataCore", "StrataCoreDataMapping", "StrataTestSupport", "strata",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // StrataStorage and StrataChecksum: dates as text, the migration ledger's checksum.
        .testTarget(
            name: "StrataStorageTests",
            dependencies: ["StrataStorage", "StrataChecksum", "StrataSQLite", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // StrataIntrospection: the canonical form of SQL read back, script splitting, drift.
        .testTarget(
            name: "StrataIntrospectionTests",
            dependencies: [
                "StrataIntrospection", "StrataCore", "StrataSQLText", "StrataSQLite", "StrataTestSupport", "strata",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // StrataVerification: `strata verify` on the fixture models, a database that tampers with rows.
        .testTarget(
            name: "StrataVerificationTests",
            dependencies: ["StrataVerification", "StrataIntrospection", "StrataCore", "StrataTestSupport"]
        ),
        // StrataDatabaseImport: `strata import database` of SQLite and PostgreSQL databases, adopting
        // an existing database, the corpus's text dates.
        .testTarget(
            name: "StrataDatabaseImportTests",
            dependencies: [
                "StrataDatabaseImport", "StrataIntrospection", "StrataCore", "StrataSQLite", "StrataStorage",
                "StrataTestSupport", "strata", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Generated repositories of the Shop fixture model (references, to-many, composite and
        // autoincremented keys, keyword names), the Blog one (joins), the Music ones (tables an
        // existing database declared) and the Links one (URL fields), compiled and exercised. Regenerate with
        // `strata generate --schemas Tests/GeneratedRepositoryTests/Schemas --output Tests/GeneratedRepositoryTests/Generated`.
        .testTarget(
            name: "GeneratedRepositoryTests",
            dependencies: [
                "StrataSQLite", "StrataPostgres", "StrataStorage", "StrataCore", "StrataIntrospection", "StrataVerification",
                "StrataTestSupport", "StrataDateSamples", "RollingV1",
            ],
            exclude: [
                "Schemas", "Generated/Shop/sqlite", "Generated/Shop/postgres", "Generated/Blog/sqlite",
                "Generated/Blog/postgres", "Generated/Music/sqlite", "Generated/Music/postgres",
                "Generated/MusicServer/sqlite", "Generated/MusicServer/postgres", "Generated/Rolling/sqlite",
                "Generated/Rolling/postgres", "Generated/Links/sqlite", "Generated/Links/postgres",
                "Generated/Ledger/sqlite", "Generated/Ledger/postgres", "Generated/Shelf/sqlite", "Generated/Shelf/postgres",
                "Generated/Prefs/sqlite", "Generated/Prefs/postgres", "Generated/Keyed/sqlite", "Generated/Keyed/postgres",
                "Generated/Notes/sqlite", "Generated/Notes/postgres", "Generated/Tagboard/sqlite",
                "Generated/Tagboard/postgres",
            ]
        ),
        // The Rolling model as its v1 app shipped (PostgreSQL only): code of v1 running beside code
        // of v2 (GeneratedRepositoryTests) while v2, a rolling version, is expanded. Regenerate with
        // `strata generate --schemas Tests/RollingV1/Schemas --output Tests/RollingV1/Generated --databases postgres`.
        .target(
            name: "RollingV1",
            dependencies: ["StrataPostgres"],
            path: "Tests/RollingV1",
            exclude: ["Schemas", "Generated/Rolling/sqlite", "Generated/Rolling/postgres"]
        ),
        // Swift generated from imported Core Data models (Tests/Fixtures/CoreData): the Library model
        // (every mapping of `strata import coredata`) and the TODO app's, compiled and exercised.
        .testTarget(
            name: "ImportedCoreDataModelTests",
            dependencies: [
                "StrataSQLite", "StrataCore", "StrataCoreDataImport", "StrataCoreDataStore", "StrataTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: [
                "Schemas", "Generated/Library/sqlite", "Generated/Library/postgres", "Generated/MyTODO/sqlite",
                "Generated/MyTODO/postgres",
            ]
        ),
        // The TODO app as it shipped at v1: code generated from Schemas/MyTODO/v1.yaml alone, to write
        // a v1 database that the v3 app opens. Regenerate with
        // `strata generate --schemas Tests/MyTODOV1/Schemas --output Tests/MyTODOV1/Generated`.
        .target(
            name: "MyTODOV1",
            dependencies: ["StrataSQLite"],
            path: "Tests/MyTODOV1",
            exclude: ["Schemas", "Generated/MyTODO/sqlite", "Generated/MyTODO/postgres"]
        ),
        // The TODO app's tests on the generated MyTODO code.
        .testTarget(
            name: "MyTODOAppTests",
            dependencies: ["MyTODO", "MyTODOV1", "StrataRelease", "StrataTestSupport"]
        ),
        // The repository benchmark (generated vs raw SQLite vs GRDB Codable), as a library so that
        // other benchmark drivers can run it. Regenerate its model with
        // `strata generate --schemas Benchmarks/Schemas --output Sources/StrataRepositoryBenchmark/Generated`.
        .target(
            name: "StrataRepositoryBenchmark",
            dependencies: ["StrataSQLite", "StrataStorage", .product(name: "GRDBSQLite", package: "GRDB.swift")],
            exclude: [
                "Generated/Bench/sqlite", "Generated/Bench/postgres", "Generated/BenchJoin/sqlite",
                "Generated/BenchJoin/postgres", "Generated/BenchSearch/sqlite", "Generated/BenchSearch/postgres",
                "Generated/BenchJSON/sqlite", "Generated/BenchJSON/postgres",
            ]
        ),
        // `swift run -c release strata-repository-bench [rows] [repetitions]`.
        .executableTarget(
            name: "strata-repository-bench",
            dependencies: ["StrataRepositoryBenchmark"]
        ),
        // The performance suite (Docs/Benchmarks.md): generator scale, repository throughput, migration
        // cost, plugin overhead, memory and Core Data store import, each against a baseline measured in the same run. The
        // library holds the sections; `swift run -c release strata-bench [--only …] [--quick] [--format json]`.
        .target(
            name: "StrataBench",
            dependencies: [
                "StrataCore",
                "StrataCoreDataImport",
                "StrataCoreDataMapping",
                "StrataSQLite",
                "StrataCoreDataStore",
                "StrataRepositoryBenchmark",
                "StrataPostgres",
                "StrataIntrospection",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "strata-bench",
            dependencies: ["StrataBench", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The benchmark's synthetic models are valid and change the way they claim (no timing here).
        .testTarget(
            name: "StrataBenchTests",
            dependencies: ["StrataBench", "StrataCore", "StrataTestSupport", "StrataPostgres", .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ]
)
