import Foundation
import StrataCore
import StrataCoreDataMapping

/// `strata import coredata`: a Core Data model's versions become `Schemas/<Model>/v1.yaml …
/// vN.yaml` and `coredata-mapping.json`. ``run(_:options:)`` reads and maps (writing nothing);
/// ``write(_:schemas:)`` writes the files, once `strata lint` accepts them, or nothing.
public enum CoreDataImporter {
    /// The command line's choices.
    public struct Options: Sendable {
        /// `--model`: the Strata model's name (default: the bundle's name).
        public var model: String?
        /// `--order`: the versions' order, oldest first.
        public var order: [String]?
        /// `--key Entity.attr`, by entity.
        public var keys: [String: String]
        /// `--transformable-as-data`.
        public var transformableAsData: Bool
        /// `--allow-new-required-to-one`: a required to-one relationship that a version adds, or
        /// makes required, is a warning instead of an error where Strata's reference stays optional.
        public var allowNewRequiredToOne: Bool

        /// Creates options.
        public init(
            model: String? = nil, order: [String]? = nil, keys: [String: String] = [:],
            transformableAsData: Bool = false, allowNewRequiredToOne: Bool = false
        ) {
            self.model = model
            self.order = order
            self.keys = keys
            self.transformableAsData = transformableAsData
            self.allowNewRequiredToOne = allowNewRequiredToOne
        }
    }

    /// What an import produced.
    public struct Outcome: Sendable {
        /// The Strata model's name.
        public var model: String
        /// The Core Data versions, in the order they became v1, v2, …; the current one is marked.
        public var order: [(name: String, isCurrent: Bool)]
        /// The version files, v1 first.
        public var schemas: [ImportedSchema]
        /// The mapping used.
        public var mapping: CoreDataMapping?
        /// Every diagnostic: errors, warnings, and notes on what was mapped how.
        public var diagnostics: [Diagnostic]

        /// True when an error stops the import.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Reads the model at `path` and maps every version; writes nothing.
    public static func run(_ path: String, options: Options) -> Outcome {
        let bundle: CoreDataBundle
        switch CoreDataBundle.open(path, order: options.order) {
        case .success(let opened): bundle = opened
        case .failure(let error):
            return Outcome(
                model: options.model ?? "", order: [], schemas: [], mapping: nil, diagnostics: error.diagnostics)
        }
        let modelName = options.model ?? bundle.modelName
        let order = bundle.versions.map { ($0.name, $0.name == bundle.current) }
        var bag = DiagnosticBag()
        if !isIdentifier(modelName) {
            bag.error(
                "the model name '\(modelName)' is not a valid Strata model name (letters, digits and '_', starting with a letter); choose one with --model",
                at: .file(path))
        }
        var versions: [CoreDataHistory.Version] = []
        for version in bundle.versions {
            let text: String
            switch CoreDataContentsFile.read(version.contents) {
            case .success(let read): text = read
            case .failure(let error):
                bag.append(contentsOf: error.diagnostics)
                continue
            }
            switch CoreDataModelReader.read(contents: text, path: version.contents, versionName: version.name) {
            case .success(let model):
                let mapped = CoreDataVersionMapper.map(
                    model, options: .init(keys: options.keys, transformableAsData: options.transformableAsData))
                bag.append(contentsOf: mapped.diagnostics)
                versions.append(CoreDataHistory.Version(model: model, mapped: mapped))
            case .failure(let error):
                bag.append(contentsOf: error.diagnostics)
            }
        }
        let entityNames = Set(versions.flatMap { $0.model.entities.map(\.name) })
        for entity in options.keys.keys.sorted() where !versions.isEmpty && !entityNames.contains(entity) {
            bag.error(
                "--key names entity '\(entity)', which no version of the model has"
                    + Suggestion.didYouMean(entity, in: entityNames),
                at: .file(path))
        }
        let source = SchemaLoader.name(of: path)
        versions = CoreDataHistory.withOneGeneratedKeyName(versions)
        guard !bag.hasErrors else {
            return Outcome(model: modelName, order: order, schemas: [], mapping: nil, diagnostics: bag.sorted)
        }
        let (schemas, diagnostics) = CoreDataHistory.schemas(
            model: modelName, source: source, versions: versions, allowNewRequiredToOne: options.allowNewRequiredToOne)
        bag.append(contentsOf: diagnostics)
        // Said here, at the file it comes from, rather than by lint in a version file never written.
        for (schema, version) in zip(schemas, versions) where schema.yaml.utf8.count > Limits.versionFileBytes {
            bag.error(
                "this Core Data version becomes \(schema.yaml.utf8.count) bytes of YAML (v\(schema.version).yaml), more than the \(Limits.versionFileBytes) bytes a version file may have; split the model",
                at: .file(version.model.path))
        }
        guard !bag.hasErrors else {
            return Outcome(model: modelName, order: order, schemas: [], mapping: nil, diagnostics: bag.sorted)
        }
        let mapping = CoreDataMapping(
            model: modelName, source: source,
            versions: zip(schemas, versions).map { schema, version in
                CoreDataMapping.Version(
                    version: schema.version, coreDataVersion: version.model.name, entities: version.mapped.mapping,
                    coreDataModel: CoreDataMapping.Model(version.model))
            })
        return Outcome(
            model: modelName, order: order, schemas: schemas, mapping: mapping, diagnostics: onceEach(bag.all, versions)
        )
    }

    /// The diagnostics sorted, with a note that every version repeats (a skipped attribute, a join
    /// entity) given once, at the newest version that has it.
    private static func onceEach(_ diagnostics: [Diagnostic], _ versions: [CoreDataHistory.Version]) -> [Diagnostic] {
        let rank = Dictionary(
            versions.enumerated().map { ($0.element.model.path, $0.offset) }, uniquingKeysWith: { $1 })
        var newest: [String: Int] = [:]
        for diagnostic in diagnostics where diagnostic.severity == .note {
            newest[diagnostic.message] = max(newest[diagnostic.message] ?? -1, rank[diagnostic.location.file] ?? 0)
        }
        var kept = DiagnosticBag()
        for diagnostic in diagnostics
        where diagnostic.severity != .note || newest[diagnostic.message] == (rank[diagnostic.location.file] ?? 0) {
            kept.append(diagnostic)
        }
        return kept.sorted
    }

    /// Why ``write(_:schemas:)`` wrote nothing: the imported schemas have problems (`strata
    /// lint`'s, or a model folder that exists), or a file could not be written.
    public typealias WriteFailure = ImportedModelWriter.Failure

    /// Writes `schemas/<Model>/vN.yaml` and `coredata-mapping.json` for an outcome without errors,
    /// after `strata lint` has accepted them in a staging folder; returns the paths written and
    /// lint's warnings. Writes nothing on any problem.
    public static func write(_ outcome: Outcome, schemas: String) throws(WriteFailure) -> (
        written: [String], warnings: [Diagnostic]
    ) {
        guard !outcome.hasErrors, let mapping = outcome.mapping else {
            throw .problems(outcome.diagnostics.filter { $0.severity == .error })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let encoded: Data
        do {
            encoded = try encoder.encode(mapping) + Data("\n".utf8)
        } catch {
            throw .io("cannot write the imported schemas under '\(schemas)': \(OutputTransaction.reason(error))")
        }
        return try ImportedModelWriter.write(
            model: outcome.model, versions: outcome.schemas,
            extraFiles: [ImportedModelWriter.File(name: CoreDataMapping.fileName, contents: encoded)], schemas: schemas
        ) { history, stagedModel in
            // The mapping gets the SQL names of every table and column, as the checked schemas have them.
            let named = named(mapping, history: history, schemas: outcome.schemas)
            try (encoder.encode(named) + Data("\n".utf8))
                .write(
                    to: URL(fileURLWithPath: SchemaLoader.join(stagedModel, CoreDataMapping.fileName)), options: .atomic
                )
        }
    }

    /// `mapping` with the table of every entity and the column and type of every field.
    private static func named(_ mapping: CoreDataMapping, history: SchemaHistory, schemas: [ImportedSchema])
        -> CoreDataMapping
    {
        var result = mapping
        for (versionIndex, version) in result.versions.enumerated() {
            guard let schema = history.versions.first(where: { $0.version == version.version }),
                let imported = schemas.first(where: { $0.version == version.version })
            else { continue }
            for (entityIndex, entity) in version.entities.enumerated() {
                guard let checked = schema.entity(named: entity.entity) else { continue }
                result.versions[versionIndex].entities[entityIndex].table = checked.table
                for (fieldIndex, field) in entity.fields.enumerated() {
                    result.versions[versionIndex].entities[entityIndex].fields[fieldIndex].column =
                        checked.field(named: field.field)?.column
                    result.versions[versionIndex].entities[entityIndex].fields[fieldIndex].type =
                        imported.entity(named: entity.entity)?.field(named: field.field)?.type
                }
            }
        }
        return result
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }
}
