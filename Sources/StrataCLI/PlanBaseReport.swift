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
        let baseFiles = try GitSnapshot.files(at: ref, under: schemas)
        let baseRoot = try GitSnapshot.materialize(baseFiles)
        defer { try? FileManager.default.removeItem(atPath: baseRoot) }
        let report = Self.report(ref: ref, model: model, schemas: schemas, baseFiles: baseFiles, baseRoot: baseRoot)
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

    /// The report of the models in `schemas` against their versions in `baseFiles` (the schemas
    /// folder's files at `ref`, written out under `baseRoot`).
    static func report(ref: String, model: String?, schemas: String, baseFiles: [String: Data], baseRoot: String)
        -> PullRequestReport
    {
        let loaded = SchemaLoader.loadAll(from: schemas, only: model)
        var bag = DiagnosticBag()
        bag.append(contentsOf: loaded.diagnostics)
        bag.append(contentsOf: BaseVersionCheck.diagnostics(schemas: schemas, base: baseFiles, ref: ref))
        var models: [PullRequestReport.ModelChanges] = []
        var fileChanges: [(path: String, change: PullRequestReport.FileChange)] = []
        for history in loaded.histories {
            let baseVersion = BaseVersionCheck.latestVersion(of: history.model, in: baseFiles)
            let plans = Generator.migrationPlans(for: history)
            bag.append(contentsOf: plans.flatMap(\.diagnostics))
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
        return PullRequestReport(ref: ref, models: models, generatedFiles: fileChanges, diagnostics: bag.sorted)
    }

    private func json(_ report: PullRequestReport) -> JSONValue {
        let models = report.models.map { model -> JSONValue in
            let migrations = model.plans.map { plan -> JSONValue in
                let steps = plan.steps.map { step -> JSONValue in
                    .object([
                        ("description", .string(step.line)), ("destructive", .bool(step.isDestructive)),
                        ("allowedBy", .string(step.allowedBy?.spelled)),
                        ("postgresLock", .string(step.postgresLock.summary)),
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
