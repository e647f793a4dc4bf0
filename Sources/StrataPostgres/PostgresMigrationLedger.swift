import Foundation
import Logging
import PostgresNIO
import StrataRuntime

/// The migration ledger on PostgreSQL: the same table as on SQLite,
///
/// ```sql
/// CREATE TABLE "strata_migrations" (
///     "model" TEXT NOT NULL, "version" INTEGER NOT NULL, "checksum" TEXT NOT NULL,
///     "applied_at" DOUBLE PRECISION NOT NULL, "compatible_from" INTEGER, "incompatibility" TEXT,
///     PRIMARY KEY ("model", "version"))
/// ```
///
/// in the first schema of the connection's `search_path` (usually `public`), one row per applied
/// version, written in the same transaction as the version's SQL. `applied_at` is seconds since
/// 1970 (UTC) as on SQLite, so that ``AppliedStrataMigration`` reads the same from both.
public enum PostgresMigrationLedger {
    /// The ledger table's name.
    public static let tableName = StrataLedgerTable.name

    static let createSQL = StrataLedgerTable.createSQL(secondsType: "DOUBLE PRECISION")

    /// Every recorded migration, ordered by version (empty when the database has no ledger).
    ///
    /// Read defensively, as on SQLite: a value of another type than Strata writes (text for a
    /// version, a NULL, a number for a checksum, a version outside `Int`) throws
    /// ``StrataMigrationError/unreadableLedger(row:column:found:)`` naming the row (its position,
    /// from 1, in the ledger ordered by version) and the column; a table by that name without
    /// Strata's columns throws ``StrataMigrationError/unreadableLedgerTable(reason:)``. Nothing is
    /// written.
    public static func entries(_ connection: PostgresConnection, logger: Logger) async throws
        -> [AppliedStrataMigration]
    {
        let exists = try await connection.strataRows(
            "SELECT to_regclass('\"strata_migrations\"') IS NOT NULL", logger: logger)
        guard try exists.first?.decode(Bool.self) == true else { return [] }
        let rows: [PostgresRow]
        let added = try await addedColumns(connection, logger: logger)
        // A ledger from before the added columns lacks them: they read as NULL.
        let extra = StrataLedgerTable.addedColumns.map {
            added.contains($0.name) ? "\"\($0.name)\"" : "NULL::\($0.type)"
        }
        do {
            rows = try await connection.strataRows(
                PostgresQuery(
                    unsafeSQL: #"SELECT "model", "version", "checksum", "applied_at", "#
                        + extra.joined(separator: ", ") + #" FROM "strata_migrations" ORDER BY "version", "model""#),
                logger: logger)
        } catch {
            let message = PostgresServerMessage(error)
            // Class 42 (syntax error or access rule violation): a column missing, another type of relation.
            guard message.sqlState?.hasPrefix("42") == true else { throw error }
            throw StrataMigrationError.unreadableLedgerTable(reason: message.description)
        }
        return try rows.enumerated().map { offset, row in
            let cells = Array(row)
            let number = Int64(offset + 1)
            guard cells.count == 6 else {
                throw StrataMigrationError.unreadableLedgerTable(reason: "\(cells.count) columns read, 6 expected")
            }
            return AppliedStrataMigration(
                model: try text(cells[0], row: number, column: "model"),
                version: try version(cells[1], row: number),
                checksum: try text(cells[2], row: number, column: "checksum"),
                appliedAt: try seconds(cells[3], row: number),
                compatibleFrom: cells[4].bytes == nil ? nil : try version(cells[4], row: number, column: "compatible_from"),
                incompatibility: cells[5].bytes == nil ? nil : try text(cells[5], row: number, column: "incompatibility"))
        }
    }

    /// Which of ``StrataLedgerTable/addedColumns`` the ledger table (the one `to_regclass` finds
    /// on the `search_path`) has.
    private static func addedColumns(_ connection: PostgresConnection, logger: Logger) async throws -> Set<String> {
        let rows = try await connection.strataRows(
            """
            SELECT attname::text FROM pg_attribute
            WHERE attrelid = to_regclass('"strata_migrations"') AND attnum > 0 AND NOT attisdropped
            """,
            logger: logger)
        let names = try rows.map { try $0.decode(String.self) }
        return Set(names).intersection(StrataLedgerTable.addedColumns.map(\.name))
    }

    private static func text(_ cell: PostgresCell, row: Int64, column: String) throws -> String {
        guard cell.bytes != nil, [.text, .varchar].contains(cell.dataType), let value = try? cell.decode(String.self)
        else { throw StrataMigrationError.unreadableLedger(row: row, column: column, found: describe(cell)) }
        return value
    }

    private static func version(_ cell: PostgresCell, row: Int64, column: String = "version") throws -> Int {
        guard cell.bytes != nil, [.int2, .int4, .int8].contains(cell.dataType), let value = try? cell.decode(Int.self)
        else { throw StrataMigrationError.unreadableLedger(row: row, column: column, found: describe(cell)) }
        return value
    }

    private static func seconds(_ cell: PostgresCell, row: Int64) throws -> Double {
        guard cell.bytes != nil, [.float4, .float8].contains(cell.dataType), let value = try? cell.decode(Double.self),
            value.isFinite
        else { throw StrataMigrationError.unreadableLedger(row: row, column: "applied_at", found: describe(cell)) }
        return value
    }

    /// A stored value, for messages: its type, and the value when it is short.
    static func describe(_ cell: PostgresCell) -> String {
        guard cell.bytes != nil else { return "NULL" }
        let type = cell.dataType.knownSQLName ?? "type \(cell.dataType.rawValue)"
        switch cell.dataType {
        case .text, .varchar:
            let text = (try? cell.decode(String.self)) ?? ""
            return text.count <= 40 ? "the text '\(text)'" : "a text of \(text.count) characters"
        case .int2, .int4, .int8:
            return (try? cell.decode(Int64.self)).map { "the integer \($0)" } ?? "an integer"
        case .float4, .float8:
            return (try? cell.decode(Double.self)).map { "the real \($0)" } ?? "a real"
        default:
            return "a value of type \(type)"
        }
    }

    /// Creates the ledger when missing, and adds the columns a ledger from before them lacks
    /// (inside the version's transaction, as the rest of it).
    static func create(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.strataExecute(createSQL, logger: logger)
        let added = try await addedColumns(connection, logger: logger)
        for column in StrataLedgerTable.addedColumns where !added.contains(column.name) {
            try await connection.strataExecute(StrataLedgerTable.addColumnSQL(column), logger: logger)
        }
    }

    static func record(_ migration: StrataMigration, model: String, _ connection: PostgresConnection, logger: Logger)
        async throws
    {
        let appliedAt = Date().timeIntervalSince1970
        _ = try await connection.strataRows(
            """
            INSERT INTO "strata_migrations" ("model", "version", "checksum", "applied_at", "compatible_from", \
            "incompatibility") VALUES (\(model), \(migration.version), \(migration.checksum), \(appliedAt), \
            \(migration.recordedCompatibleFrom), \(migration.incompatibility))
            """,
            logger: logger)
    }

    /// Records that the contract of `migration` (a rolling version) ran: code of the version
    /// before no longer runs against the database, and why.
    static func recordContract(
        _ migration: StrataMigration, model: String, _ connection: PostgresConnection, logger: Logger
    ) async throws {
        _ = try await connection.strataRows(
            """
            UPDATE "strata_migrations" SET "compatible_from" = \(migration.version), \
            "incompatibility" = \(migration.contractIncompatibility) \
            WHERE "model" = \(model) AND "version" = \(migration.version)
            """,
            logger: logger)
    }

    /// True when `migration` is a rolling version the ledger (`entries`) records as applied and
    /// not contracted yet (code of the version before still accepted).
    static func contractPending(_ migration: StrataMigration, model: String, in entries: [AppliedStrataMigration]) -> Bool {
        guard migration.contract != nil,
            let entry = entries.first(where: { $0.model == model && $0.version == migration.version }),
            let oldest = entry.compatibleFrom
        else { return false }
        return oldest < migration.version
    }
}
