import GRDB
import StrataCore
import StrataRuntime

/// The check `strata migrate --baseline N` makes before recording versions 1...N of a model as
/// applied to an existing database: its live schema, read as `strata verify` reads one
/// (``SQLiteIntrospector``, ``PostgresIntrospector``), must be version N's ``ExpectedSchema``,
/// compared as `strata verify` compares them (``SchemaComparison``, columns in any order).
///
/// Strata's own tables (`strata_migrations`, `strata_storage`) are left out. Constraint names are
/// compared on PostgreSQL, where later migrations drop and add constraints by name, and not on
/// SQLite, which records no name for a constraint written without `CONSTRAINT` and whose
/// migrations rebuild a table with all its constraints rather than name them.
///
/// As a SQLite FTS5 table is (an unmanaged table), a PostgreSQL full-text search vector the model
/// does not declare is left out, so that a database imported with `strata import database` is
/// adopted as it is: a `tsvector` column introspection recognised as one
/// (``DatabaseSchema/Column/searchSources``) that the expected table does not have, and an index
/// on such columns alone. `strata verify` compares them (``SchemaComparison``).
public struct BaselineSchemaCheck: Sendable {
    /// The model's version the database should be at.
    public let schema: Schema
    /// The database's dialect.
    public let dialect: SQLDialect

    /// A check of a database against `schema` in `dialect`.
    public init(schema: Schema, dialect: SQLDialect) {
        self.schema = schema
        self.dialect = dialect
    }

    /// Every difference of `live` from the expected schema, as `strata verify` words them.
    public func differences(_ live: DatabaseSchema) -> [SchemaDifference] {
        let expected = ExpectedSchema.of(schema, dialect: dialect)
        return SchemaComparison(
            comparesColumnOrder: false, comparesConstraintNames: dialect == .postgres, storageDialect: dialect
        ).differences(
            expected: expected,
            actual: live.removingTables(DatabaseSchema.strataTables).removingSearchVectors(notIn: expected))
    }

    /// Throws ``StrataMigrationError/schemaDiffers(model:version:differences:)`` listing every
    /// difference when `live` is not the expected schema.
    public func require(_ live: DatabaseSchema) throws {
        let found = differences(live)
        if !found.isEmpty {
            throw StrataMigrationError.schemaDiffers(
                model: schema.model, version: schema.version, differences: found.map(\.description))
        }
    }

    /// Checks the SQLite database `db`.
    public func require(_ db: Database) throws { try require(try SQLiteIntrospector.schema(of: db)) }

    /// Checks the PostgreSQL database of `session` (its `public` schema).
    public func require(_ session: PostgresSession) async throws {
        try require(try await PostgresIntrospector.schema(of: session))
    }
}

extension DatabaseSchema {
    /// The schema without the full-text search vectors (columns with
    /// ``DatabaseSchema/Column/searchSources``) that the same table of `expected` does not have,
    /// nor the indexes on such columns alone.
    func removingSearchVectors(notIn expected: DatabaseSchema) -> DatabaseSchema {
        var copy = self
        for index in copy.tables.indices {
            let table = copy.tables[index]
            let declared = Set(expected.table(named: table.name)?.columns.map(\.name) ?? [])
            let vectors = Set(
                table.columns.filter { $0.searchSources != nil && !declared.contains($0.name) }.map(\.name))
            guard !vectors.isEmpty else { continue }
            copy.tables[index].columns.removeAll { vectors.contains($0.name) }
            copy.tables[index].indexes.removeAll { !$0.columns.isEmpty && $0.columns.allSatisfy(vectors.contains) }
        }
        return copy
    }
}
