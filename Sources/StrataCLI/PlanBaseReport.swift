import Foundation
import StrataCore

/// `strata plan --base <ref>`: the versions a branch adds since `<ref>`, as a pull request report.
struct BaseReport {
    var ref: String
    /// One model, or every model of the schemas folder.
    var model: String?
    var schemas: String
    var dialect: SQLDialect
    var format: ReviewFormat

    func run() throws {
        let base = try BaseRef(ref: ref, schemas: schemas)
        let baseRoot = try GitSnapshot.materialize(base.files)
        defer { try? FileManager.default.removeItem(atPath: baseRoot) }
        let report = Self.report(model: model, base: base, baseRoot: baseRoot)
        switch format {
        case .markdown, .text:
            Console.report(report.diagnostics)
            print(report.markdown)
        case .github:
            print(DiagnosticAnnotations.render(report.diagnostics), terminator: "")
        case .json:
            print(json(report).rendered)
        }
        if report.diagnostics.contains(where: { $0.severity == .error }) { throw StrataExitCode.problemsFound.exitCode }
    }

    /// The report of the models in the schemas folder (or of `model` alone) against `base`,
    /// whose files are written out under `baseRoot`.
    static func report(model: String?, base: BaseRef, baseRoot: String) -> PullRequestReport {
        let loaded = SchemaLoader.loadAll(from: base.schemas, only: model)
        var bag = DiagnosticBag()
        bag.append(contentsOf: loaded.diagnostics)
        let plans = loaded.histories.map { Generator.migrationPlans(for: $0) }
        bag.append(contentsOf: plans.joined().flatMap(\.diagnostics))
        bag.append(contentsOf: base.diagnostics(histories: loaded.histories, plans: plans))
        var models: [PullRequestReport.ModelChanges] = []
        var fileChanges: [(path: String, change: PullRequestReport.FileChange)] = []
        for (history, plans) in zip(loaded.histories, plans) {
            let baseVersion = base.latestVersion(of: history.model)
            models.append(
                PullRequestReport.ModelChanges(
                    model: history.model, baseVersion: baseVersion,
                    created: baseVersion == 0 ? history.version(1) : nil,
                    plans: plans.filter { $0.to.version > baseVersion }))
            // The generated files of both sides, rendered from their schemas.
            let head = Generator.files(for: history, plans: plans)
            var base: [GeneratedFile] = []
            if baseVersion > 0 {
                let (baseHistory, _, _) = SchemaLoader.loadModel(named: history.model, in: baseRoot)
                if let baseHistory { base = Generator.files(for: baseHistory) }
            }
            fileChanges += PullRequestReport.fileChanges(base: base, head: head)
        }
        return PullRequestReport(ref: base.ref, models: models, generatedFiles: fileChanges, diagnostics: bag.sorted)
    }

    private func json(_ report: PullRequestReport) -> JSONValue {
        let models = report.models.map { model -> JSONValue in
            let migrations = model.plans.map { plan -> JSONValue in
                let steps = zip(plan.steps, plan.postgresLocks()).map { step, lock -> JSONValue in
                    .object([
                        ("description", .string(step.line)), ("destructive", .bool(step.isDestructive)),
                        ("allowedBy", .string(step.allowedBy?.spelled)),
                        ("postgresLock", .string(lock.summary)),
                    ])
                }
                return .object([
                    ("from", .int(plan.from.version)), ("to", .int(plan.to.version)), ("steps", .array(steps)),
                    (
                        "sqliteRebuilds",
                        .array(MigrationSQLRenderer.sqliteRebuiltEntities(for: plan).map(JSONValue.string))
                    ),
                    (
                        "sql",
                        .array(
                            MigrationSQLRenderer.statements(for: plan, dialect: dialect).map { .string($0.rendered) })
                    ),
                ])
            }
            return .object([
                ("model", .string(model.model)), ("from", .int(model.baseVersion)), ("to", .int(model.latestVersion)),
                ("migrations", .array(migrations)),
            ])
        }
        let files = report.generatedFiles.map { file -> JSONValue in
            .object([("path", .string(file.path)), ("change", .string(file.change.rawValue))])
        }
        return .object([
            ("base", .string(report.ref)), ("dialect", .string(dialect.rawValue)),
            ("diagnostics", .diagnostics(report.diagnostics)),
            ("models", .array(models)), ("generatedFiles", .array(files)),
        ])
    }
}
