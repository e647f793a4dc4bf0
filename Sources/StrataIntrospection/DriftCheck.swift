import GRDB
import PostgresNIO
import StrataCore
import StrataPostgres
import StrataRuntime
import StrataSQLite

/// What `strata drift` found: the version a database's migration ledger says it is at, and every
/// way its live schema differs from that version's (a hand-made index, a column changed by hand).
public struct DriftReport: Sendable {
    /// The model.
    public var model: String
    /// The version the ledger records as the latest applied.
    public var version: Int
    /// The database's dialect.
    public var dialect: SQLDialect
    /// The differences, worded as `strata verify` and `migrate --baseline` word them; empty when
    /// the database is what the version says.
    public var differences: [SchemaDifference]

    /// True when the live schema differs from the version's.
    public var hasDrifted: Bool { !differences.isEmpty }
}

/// A database that `strata drift` cannot compare.
public enum DriftError: Error, CustomStringConvertible, Sendable {
    /// No migration ledger, or an empty one: nothing says which version the database should be.
    case noLedger(model: String)
    /// The database is at a version newer than the schemas define (accepted by the migrator: a
    /// rolling deploy), so there is no schema to compare it with.
    case aheadOfSchemas(model: String, version: Int, latestKnownVersion: Int)

    public var description: String {
        switch self {
        case .aheadOfSchemas(let model, let version, let latest):
            return
                "the database is at \(model) v\(version), ahead of these schemas (v\(latest)); its schema can only be "
                + "compared with v\(version)'s: run strata drift with the schemas of v\(version)"
        case .noLedger(let model):
            return
                "the database has no migration ledger (\(StrataLedgerTable.name)) with versions of \(model): it was not "
                + "migrated by Strata; migrate it with `strata migrate`, or adopt it with `strata migrate --baseline N`"
        }
    }
}

/// `strata drift`: compares a live database with the version its ledger records, with the
/// comparison `strata migrate --baseline` makes (``BaselineSchemaCheck``). The ledger is read
/// and validated as `strata migrate` reads it (a database newer than the model, of another
/// model, or whose applied migrations were since edited is refused with the migrator's error).
public enum DriftCheck {
    /// The drift of the SQLite database `db` from `history`.
    public static func check(_ db: Database, history: SchemaHistory) throws -> DriftReport {
        guard !(try MigrationLedger.entries(db)).isEmpty else { throw DriftError.noLedger(model: history.model) }
        let migrator = SQLiteMigrator(
            model: history.model, migrations: MigrationSources.sqlite(for: history).map(StrataMigration.init))
        let version = try migrator.currentVersion(db)
        return try report(history, version: version, dialect: .sqlite, live: try SQLiteIntrospector.schema(of: db))
    }

    /// The drift of the PostgreSQL database of `session` (its `public` schema) from `history`.
    public static func check(_ session: PostgresSession, history: SchemaHistory) async throws -> DriftReport {
        var logger = Logger(label: "strata.drift")
        logger.logLevel = .critical
        guard !(try await PostgresMigrationLedger.entries(session.connection, logger: logger)).isEmpty else {
            throw DriftError.noLedger(model: history.model)
        }
        let migrator = PostgresMigrator(
            model: history.model,
            migrations: MigrationSources.postgres(for: history).map(StrataMigration.init))
        let version = try await migrator.currentVersion(session.connection)
        return try report(
            history, version: version, dialect: .postgres, live: try await PostgresIntrospector.schema(of: session))
    }

    private static func report(
        _ history: SchemaHistory, version: Int, dialect: SQLDialect, live: DatabaseSchema
    ) throws -> DriftReport {
        let latest = history.latest?.version ?? 0
        if version > latest {
            throw DriftError.aheadOfSchemas(model: history.model, version: version, latestKnownVersion: latest)
        }
        guard let schema = history.version(version) else { throw DriftError.noLedger(model: history.model) }
        return DriftReport(
            model: history.model, version: version, dialect: dialect,
            differences: BaselineSchemaCheck(schema: schema, dialect: dialect).differences(live))
    }
}
