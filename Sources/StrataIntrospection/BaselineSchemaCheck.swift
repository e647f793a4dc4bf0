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
        SchemaComparison(
            comparesColumnOrder: false, comparesConstraintNames: dialect == .postgres, storageDialect: dialect
        ).differences(
            expected: ExpectedSchema.of(schema, dialect: dialect),
            actual: live.removingTables(DatabaseSchema.strataTables))
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
