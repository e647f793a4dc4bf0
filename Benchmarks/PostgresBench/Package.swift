// swift-tools-version:6.0
// The PostgreSQL repository benchmark: the generated repository against the same statements
// written by hand on PostgresNIO and against FluentKit with FluentPostgresDriver, on one server.
// A package of its own, so that Strata and its CI never build Fluent (a baseline only).
// `swift run -c release strata-bench --only postgres` runs it; by hand:
// `swift run -c release strata-postgres-bench --url postgres://postgres@127.0.0.1:5432/postgres`.
import PackageDescription

let package = Package(
    name: "StrataPostgresBench",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Strata", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/vapor/fluent-kit", from: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver", from: "2.14.0"),
    ],
    targets: [
        // The Bench, BenchJSON and BenchJoin models (Benchmarks/Schemas) generated for PostgreSQL by StrataPlugin.
        .executableTarget(
            name: "strata-postgres-bench",
            dependencies: [
                .product(name: "StrataPostgres", package: "Strata"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
            ],
            plugins: [.plugin(name: "StrataPlugin", package: "Strata")]
        )
    ]
)
