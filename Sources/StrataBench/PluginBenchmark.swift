import Foundation

/// Build plugin overhead: incremental `swift build`s of the consumer package (its Notebook model
/// generated at build time by StrataPlugin) against the same package with the generated Swift
/// checked in and no plugin, in the same run. The method is `Scripts/measure-plugin-builds.sh`'s:
/// each build is one timed `swift build -v`, whose log says how many times the generator
/// (`strata-generator build-plugin`) ran and which modules were compiled.
///
/// | step | with the plugin | baseline (checked in, no plugin) |
/// |---|---|---|
/// | no-op | nothing changed | nothing changed |
/// | schema touched | the latest version's mtime changes: the generator runs, writes the same bytes, nothing is compiled | the same file touched: not an input, nothing to do |
/// | schema changed | a version added: the generator runs, the Swift changes, Notebook is compiled | the Swift `strata generate` writes for it copied in, Notebook is compiled |
///
/// The packages live in a work folder kept between runs (`.build-bench-consumer` by default):
/// the first run builds their dependencies (Strata's tool and runtime, GRDB, …) once, unmeasured.
public struct PluginBenchmark: Sendable {
    /// The repository root.
    public var root: String
    /// The work folder holding both packages.
    public var work: String
    /// Timed builds per step and package, after the warm-up (the fastest counts).
    public var repetitions: Int

    /// A benchmark of the consumer package of `root`.
    public init(root: String, work: String, repetitions: Int = 3) {
        self.root = root
        self.work = work
        self.repetitions = repetitions
    }

    /// Why a build could not be measured.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// One timed build.
    struct Build {
        var seconds: Double
        var generatorRuns: Int
        var compiled: [String]
        /// The build's `swift build -v` output.
        var log: String
    }

    /// Runs every step and returns the figures.
    public func run(progress: (String) -> Void = { _ in }) throws -> [Figure] {
        let copies = ConsumerCopies(root: root, work: work)
        try copies.prepare()
        let packages = [copies.plugin, copies.checkedIn]
        progress("plugin: warm-up builds (the first run builds every dependency: minutes)")
        // Two rounds: after Strata itself changed, building one package re-evaluates Strata's
        // manifest in SwiftPM's shared cache, which makes the other package plan its build again
        // (and relink the generator tool) once more; the measured builds start after that settles.
        for round in 1...2 {
            for package in packages { _ = try build(package, step: "warm-up \(round)") }
        }

        progress("plugin: no-op builds")
        var noOp: [[Build]] = [[], []]
        for run in 1...repetitions {
            for (index, package) in packages.enumerated() { noOp[index].append(try build(package, step: "no-op \(run)")) }
        }

        progress("plugin: schema touched")
        var touched: [[Build]] = [[], []]
        for run in 1...repetitions {
            for (index, package) in packages.enumerated() {
                let latest = try copies.latestVersion(of: package)
                let file = (copies.modelFolder(of: package) as NSString).appendingPathComponent("v\(latest).yaml")
                try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file)
                touched[index].append(try build(package, step: "touch \(run)"))
            }
        }

        progress("plugin: schema changed")
        var changed: [[Build]] = [[], []]
        for run in 1...repetitions {
            // A version is added, then removed again: both builds regenerate and recompile.
            let added = try copies.addVersion(to: copies.plugin)
            changed[0].append(try build(copies.plugin, step: "new version \(run)"))
            let addedCheckedIn = try copies.addVersion(to: copies.checkedIn)
            try copies.writeCheckedInSwift()
            changed[1].append(try build(copies.checkedIn, step: "new version \(run)"))
            try FileManager.default.removeItem(atPath: added)
            changed[0].append(try build(copies.plugin, step: "version removed \(run)"))
            try FileManager.default.removeItem(atPath: addedCheckedIn)
            try copies.writeCheckedInSwift()
            changed[1].append(try build(copies.checkedIn, step: "version removed \(run)"))
        }

        try expect(noOp[0], generatorRuns: false, compiles: false, "a no-op build with the plugin")
        try expect(touched[0], generatorRuns: true, compiles: false, "touching a schema")
        try expect(changed[0], generatorRuns: true, compiles: true, "changing a schema")

        func figure(_ name: String, _ builds: [[Build]], baselineName: String, _ baseline: [Build]) -> Figure {
            let fastest = builds[0].min { $0.seconds < $1.seconds }
            let runs = builds[0].map(\.generatorRuns).max() ?? 0
            let modules = Set(builds[0].flatMap(\.compiled)).sorted()
            return Figure(
                section: .plugin, name: name, value: fastest?.seconds ?? 0, baselineName: baselineName,
                baseline: baseline.map(\.seconds).min() ?? 0, unit: .seconds,
                detail: "generator ran \(runs)x, compiled: \(modules.isEmpty ? "nothing" : modules.joined(separator: ", "))")
        }
        return [
            figure("no-op rebuild, consumer with StrataPlugin", noOp, baselineName: "no-op, generated code checked in", noOp[1]),
            figure(
                "schema touched (mtime), consumer with StrataPlugin", touched,
                baselineName: "same file touched, checked in (a no-op)", touched[1]),
            figure(
                "schema changed (version added), consumer with StrataPlugin", changed,
                baselineName: "same Swift change checked in, no plugin", changed[1]),
        ]
    }

    private func expect(_ builds: [Build], generatorRuns: Bool, compiles: Bool, _ what: String) throws {
        for build in builds {
            if (build.generatorRuns > 0) != generatorRuns {
                throw Failure(
                    description:
                        "\(what): the generator ran \(build.generatorRuns) times (expected \(generatorRuns ? "at least once" : "never")); log: \(build.log)")
            }
            if !compiles && !build.compiled.isEmpty {
                throw Failure(description: "\(what): compiled \(build.compiled.joined(separator: ", ")) (expected nothing); log: \(build.log)")
            }
        }
    }

    /// One timed `swift build -v` of `package`; the log stays under the work folder.
    private func build(_ package: String, step: String) throws -> Build {
        let logs = (work as NSString).appendingPathComponent("logs")
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        let name = (package as NSString).lastPathComponent + "-" + step.replacingOccurrences(of: " ", with: "-") + ".log"
        let log = (logs as NSString).appendingPathComponent(name)
        try? FileManager.default.removeItem(atPath: log)
        let outcome = try Subprocess.run("swift", ["build", "-v", "--package-path", package], log: log)
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard outcome.status == 0 else {
            throw Failure(description: "swift build failed in \(package) (step \(step)); log: \(log)\n" + text.suffix(2_000))
        }
        return Build(seconds: outcome.seconds, generatorRuns: Self.generatorRuns(in: text), compiled: Self.compiledModules(in: text), log: log)
    }

    /// How many times the log shows the generator running.
    static func generatorRuns(in log: String) -> Int {
        log.split(separator: "\n").filter { $0.contains(" build-plugin --model-folder ") }.count
    }

    /// The package modules the log shows being compiled (`swift-frontend -frontend -c …` or
    /// `swiftc … -module-name M`); not plugin scripts (compiled against `PluginAPI`), which
    /// SwiftPM compiles again on every build.
    static func compiledModules(in log: String) -> [String] {
        var modules: Set<String> = []
        for line in log.split(separator: "\n")
        where (line.contains("swift-frontend -frontend -c ") || line.contains("swiftc ")) && !line.contains("/PluginAPI") {
            let words = line.split(separator: " ")
            if let index = words.firstIndex(of: "-module-name"), index + 1 < words.count {
                modules.insert(String(words[index + 1]))
            }
        }
        return modules.sorted()
    }
}
