// swift-tools-version:6.0
// A package that is not Strata and uses it the way any app would: by the StrataPlugin build tool
// plugin (its Swift is generated from Schemas/Notebook at build time) and the StrataSQLite library
// for the app; the same model on PostgreSQL, with the StrataPostgres library, for its server.
// CI builds and tests it from a clean clone (.ci/run, through ci.sh).
import PackageDescription

let package = Package(
    name: "StrataConsumer",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        // In an app: .package(url: "https://github.com/<owner>/strata", from: "1.0.0").
        .package(name: "Strata", path: "../.."),
    ],
    targets: [
        .target(
            name: "Notebook",
            dependencies: [.product(name: "StrataSQLite", package: "Strata")],
            plugins: [.plugin(name: "StrataPlugin", package: "Strata")]
        ),
        .testTarget(
            name: "NotebookTests",
            dependencies: ["Notebook"]
        ),
        // The server: the same model, generated for PostgreSQL alone (Sources/NotebookServer/strata.yaml).
        .target(
            name: "NotebookServer",
            dependencies: [.product(name: "StrataPostgres", package: "Strata")],
            plugins: [.plugin(name: "StrataPlugin", package: "Strata")]
        ),
        .testTarget(
            name: "NotebookServerTests",
            dependencies: ["NotebookServer"]
        ),
    ]
)
