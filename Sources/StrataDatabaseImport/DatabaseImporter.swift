import Foundation
import GRDB
import StrataCore
import StrataIntrospection
import StrataSQLite

/// `strata import database`: the tables of an existing SQLite or PostgreSQL database become
/// `Schemas/<Model>/v1.yaml`. ``readSQLite(path:)`` and ``readPostgres(url:)`` introspect (as
/// `strata verify` does), ``map(_:dialect:model:source:)`` maps (writing nothing), and
/// ``write(_:schemas:)`` writes the file once `strata lint` accepts it, or nothing.
///
/// What the schema language cannot say (a type Strata does not declare, an expression default, a
/// composite foreign key, a check) is a warning naming `table.column`; the rest is imported as
/// the database has it: types, primary keys (autoincremented ones too), references with their
/// `onDelete`, NOT NULL, unique constraints, indexes with their names, literal defaults.
public enum DatabaseImporter {
    /// What an import produced.
    public struct Outcome: Sendable {
        /// The Strata model's name.
        public var model: String
        /// The version file, `v1.yaml`.
        public var schema: ImportedSchema
        /// Errors, and warnings for what is not imported as the database has it.
        public var diagnostics: [Diagnostic]

        /// True when an error stops the import.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// The schema of the SQLite database at `path`, opened read-only.
    public static func readSQLite(path: String) throws -> DatabaseSchema {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            var schema = try SQLiteIntrospector.schema(of: db)
            schema.textDates = try TextDateSurvey.of(db, schema: schema)
            return schema
        }
    }

    /// The schema of the `public` schema of the PostgreSQL database at `url`.
    public static func readPostgres(url: PostgresURL) async throws -> DatabaseSchema {
        let session = try await PostgresSession.connect(to: url)
        do {
            let schema = try await PostgresIntrospector.schema(of: session)
            try await session.close()
            return schema
        } catch {
            try? await session.close()
            throw error
        }
    }

    /// Maps the tables of `database` (read from a `dialect` database) to the version file of
    /// `model`; diagnostics are located at `source` (the database's path or URL). Writes nothing.
    public static func map(_ database: DatabaseSchema, dialect: SQLDialect, model: String, source: String) -> Outcome {
        var bag = DiagnosticBag()
        let location = SourceLocation.file(source)
        if !SchemaNames.isUsableTypeName(model) {
            bag.error(
                "the model name '\(model)' is not a valid Strata model name (letters, digits and '_', starting with a letter); choose one with --model",
                at: location)
        }
        for table in database.unmanaged {
            if let search = table.fullTextSearch, database.tables.contains(where: { $0.name == search.table }) {
                bag.warning(ImportedSearchWarning.fts5(table: table.name, over: search), at: location)
                continue
            }
            bag.warning(
                "table '\(table.name)' is a \(table.kind), which Strata does not declare; not imported, and left as it is",
                at: location)
        }
        var tables: [DatabaseSchema.Table] = []
        for table in database.tables where !DatabaseSchema.strataTables.contains(table.name) {
            guard let key = table.primaryKey else {
                bag.warning(
                    "table '\(table.name)' has no primary key, which every Strata entity needs; not imported",
                    at: location)
                continue
            }
            let untyped = key.columns.filter { name in
                table.column(named: name).flatMap { ImportedColumnType.of($0.type, dialect: dialect) } == nil
            }
            guard untyped.isEmpty else {
                bag.warning(
                    "table '\(table.name)' has a primary key column of a type Strata does not have ('\(table.name).\(untyped[0])'); not imported",
                    at: location)
                continue
            }
            tables.append(table)
        }
        if tables.isEmpty, !bag.hasErrors {
            bag.error(
                database.tables.isEmpty
                    ? "the database has no tables to import" : "none of the database's tables can be imported",
                at: location)
        }
        var entityNames: [String: String] = [:]
        var taken: Set<String> = []
        for table in tables {
            let name = ImportedNames.unique(ImportedNames.entity(table.name), among: taken)
            taken.insert(name.lowercased())
            entityNames[table.name] = name
        }
        let context = TableMapper.Context(
            dialect: dialect, tables: Dictionary(uniqueKeysWithValues: tables.map { ($0.name, $0) }),
            entityNames: entityNames, textDates: database.textDates)
        var entities: [ImportedEntity] = []
        var enums: [ImportedEnum] = []
        for table in tables {
            var mapper = TableMapper(table: table, context: context, typeNames: taken)
            entities.append(mapper.entity())
            enums += mapper.enums
            taken = mapper.typeNames
            for warning in mapper.warnings { bag.warning(warning, at: location) }
        }
        var schema = ImportedSchema(
            model: model, version: 1,
            header: ["Imported by 'strata import database' from \(source) (\(dialect.displayName))."],
            entities: entities)
        schema.enums = enums
        return Outcome(model: model, schema: schema, diagnostics: bag.all)
    }

    /// Writes `schemas/<Model>/v1.yaml` for an outcome without errors, after `strata lint` has
    /// accepted it in a staging folder; returns the paths written and lint's warnings. Writes
    /// nothing on any problem, and never into an existing model folder.
    public static func write(_ outcome: Outcome, schemas: String) throws(ImportedModelWriter.Failure) -> (
        written: [String], warnings: [Diagnostic]
    ) {
        guard !outcome.hasErrors else { throw .problems(outcome.diagnostics.filter { $0.severity == .error }) }
        return try ImportedModelWriter.write(model: outcome.model, versions: [outcome.schema], schemas: schemas)
    }
}
