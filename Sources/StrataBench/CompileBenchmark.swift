import Foundation
import StrataCore

/// What generated code costs the user's build: `swift build` of a target holding all the Swift
/// generated for the generator section's synthetic model (model structs, records, database,
/// migrations and repositories) for SQLite, and of one holding the same for PostgreSQL, each
/// against the same package's target holding the model structs alone, in debug and release.
/// Two steps per configuration, taking turns between the targets:
///
/// - first build: the target's build folder removed (its dependencies, the runtime and GRDB or
///   PostgresNIO, stay built), then `swift build --target T`;
/// - rebuild: every source of the target touched, then `swift build --target T`.
///
/// The package lives in a work folder kept between runs (`.build-bench-compile` by default), so
/// only the first run pays for building the dependencies.
public struct CompileBenchmark: Sendable {
    /// The repository root (the package depends on it by path).
    public var root: String
    /// The work folder.
    public var work: String
    /// Entities of the synthetic model (20 fields each).
    public var entities: Int
    /// Configurations to build.
    public var configurations: [String]
    /// Timed builds per step and target (the fastest counts).
    public var repetitions: Int

    /// Target: the generated target's build time at most this factor of the structs-only target's.
    public static let ratioTarget = 1.5

    /// A benchmark of a model of `entities` entities.
    public init(root: String, work: String, entities: Int = 100, configurations: [String] = ["debug", "release"], repetitions: Int = 2) {
        self.root = root
        self.work = work
        self.entities = entities
        self.configurations = configurations
        self.repetitions = repetitions
    }

    /// Why a build could not be measured.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// The targets: all generated Swift for SQLite, the model structs alone, and all generated
    /// Swift for PostgreSQL.
    static let generatedTarget = "GeneratedModel"
    static let structsTarget = "StructsOnly"
    static let postgresTarget = "GeneratedPostgresModel"

    /// Writes the package and measures every configuration.
    public func run(progress: (String) -> Void = { _ in }) throws -> [Figure] {
        let lines = try writePackage()
        var figures: [Figure] = []
        for configuration in configurations {
            progress("compile: \(configuration) warm-up (the first run builds StrataSQLite and GRDB, StrataPostgres and PostgresNIO)")
            try build(target: "StrataSQLite", configuration: configuration)
            try build(target: "StrataPostgres", configuration: configuration)
            // Per target (SQLite, structs, PostgreSQL): the fastest wall time and, apart, the least CPU time.
            var first = [Fastest(), Fastest(), Fastest()]
            var rebuild = [Fastest(), Fastest(), Fastest()]
            let targets = [Self.generatedTarget, Self.structsTarget, Self.postgresTarget]
            for run in 1...max(1, repetitions) {
                progress("compile: \(configuration) builds, round \(run)")
                for (index, target) in targets.enumerated() {
                    try removeBuildFolder(of: target, configuration: configuration)
                    first[index].add(try build(target: target, configuration: configuration))
                    try touchSources(of: target)
                    rebuild[index].add(try build(target: target, configuration: configuration))
                }
            }
            for (index, code) in [(0, "the generated code"), (2, "the generated PostgreSQL code")] {
                let lineCounts = "\(Format.count(entities)) entities x 20 fields: \(Format.count(lines[index])) generated lines "
                    + "(\(Format.count(lines[1])) of them model structs)"
                for (kind, times) in [("first build", first), ("sources touched", rebuild)] {
                    figures.append(
                        Figure(
                            section: .compile, name: "swift build (\(configuration)) of \(code): \(kind)",
                            value: times[index].wall, baselineName: "the model structs alone", baseline: times[1].wall,
                            unit: .seconds, target: .ratioAtMost(Self.ratioTarget),
                            detail: "\(lineCounts); CPU time (user + system) \(Format.value(times[index].cpu, .seconds)) "
                                + "against \(Format.value(times[1].cpu, .seconds)), \(Format.ratio(times[index].cpu / times[1].cpu))"))
                }
            }
        }
        return figures
    }

    /// Writes the package and its targets' sources; returns the line counts of the SQLite
    /// target, the structs' and the PostgreSQL target, in this order.
    func writePackage() throws -> [Int] {
        let manager = FileManager.default
        let schemas = try GeneratorBenchmark.writeModel(entities: entities, under: work)
        func swiftFiles(_ database: SQLDialect) throws -> [GeneratedFile] {
            let plan = Workspace.plan(
                schemas: schemas, output: (work as NSString).appendingPathComponent("Generated"), databases: [database])
            guard !plan.hasErrors else { throw Failure(description: "the synthetic model does not generate") }
            return plan.files.filter { $0.path.hasSuffix(".swift") }
        }
        let sqlite = try swiftFiles(.sqlite)
        let targets = [
            (Self.generatedTarget, sqlite), (Self.structsTarget, sqlite.filter { $0.path.hasSuffix("Models.swift") }),
            (Self.postgresTarget, try swiftFiles(.postgres)),
        ]
        var lines: [Int] = []
        for (target, files) in targets {
            let folder = (work as NSString).appendingPathComponent("Sources/\(target)")
            try? manager.removeItem(atPath: folder)
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var count = 0
            for file in files {
                let name = (file.path as NSString).lastPathComponent
                try write(file.contents, to: (folder as NSString).appendingPathComponent(name))
                count += file.contents.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            }
            lines.append(count)
        }
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "CompileBench",
                platforms: [.macOS(.v13)],
                dependencies: [.package(name: "Strata", path: \(SwiftLiteral.string(root)))],
                targets: [
                    .target(name: "\(Self.generatedTarget)", dependencies: [.product(name: "StrataSQLite", package: "Strata")]),
                    .target(name: "\(Self.structsTarget)", dependencies: [.product(name: "StrataSQLite", package: "Strata")]),
                    .target(name: "\(Self.postgresTarget)", dependencies: [.product(name: "StrataPostgres", package: "Strata")]),
                ]
            )

            """
        try write(manifest, to: (work as NSString).appendingPathComponent("Package.swift"))
        return lines
    }

    private func write(_ text: String, to path: String) throws {
        let data = Data(text.utf8)
        if FileManager.default.contents(atPath: path) == data { return }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// The fastest wall time and the least CPU time of a target's builds.
    struct Fastest {
        var wall = Double.infinity
        var cpu = Double.infinity

        mutating func add(_ outcome: Subprocess.Outcome) {
            wall = min(wall, outcome.seconds)
            cpu = min(cpu, outcome.cpuSeconds)
        }
    }

    /// Times one `swift build --target` (wall and CPU time, the compiler's processes included);
    /// throws with the log's end when it fails.
    @discardableResult
    func build(target: String, configuration: String) throws -> Subprocess.Outcome {
        let log = (work as NSString).appendingPathComponent("build.log")
        try? FileManager.default.removeItem(atPath: log)
        let outcome = try Subprocess.run(
            "swift", ["build", "-c", configuration, "--target", target], in: work, log: log)
        guard outcome.status == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure(description: "swift build --target \(target) failed:\n" + text.suffix(2_000))
        }
        return outcome
    }

    /// Removes a target's objects, dependency records and module (keeping the build plan's own
    /// files), so that the next build compiles it from scratch.
    func removeBuildFolder(of target: String, configuration: String) throws {
        let manager = FileManager.default
        let products = (work as NSString).appendingPathComponent(".build/\(configuration)")
        let objects = (products as NSString).appendingPathComponent("\(target).build")
        for name in (try? manager.contentsOfDirectory(atPath: objects)) ?? [] where !name.hasSuffix(".json") {
            try manager.removeItem(atPath: (objects as NSString).appendingPathComponent(name))
        }
        let modules = (products as NSString).appendingPathComponent("Modules")
        for name in (try? manager.contentsOfDirectory(atPath: modules)) ?? [] where name.hasPrefix(target + ".") {
            try manager.removeItem(atPath: (modules as NSString).appendingPathComponent(name))
        }
    }

    /// Sets every source file's modification time to now.
    func touchSources(of target: String) throws {
        let folder = (work as NSString).appendingPathComponent("Sources/\(target)")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            try FileManager.default.setAttributes(
                [.modificationDate: Date()], ofItemAtPath: (folder as NSString).appendingPathComponent(name))
        }
    }
}

/// Swift string literals for generated manifests.
enum SwiftLiteral {
    /// `text` as a Swift string literal.
    static func string(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
