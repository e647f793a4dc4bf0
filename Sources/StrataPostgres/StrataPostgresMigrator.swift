import PostgresNIO
import StrataRuntime

// Interim: replaced by the full migrator (ledger checks, advisory lock) of the migrate --postgres work.
public struct StrataPostgresMigrator: Sendable {
    public let model: String
    public let migrations: [StrataMigration]

    public init(model: String, migrations: [StrataMigration]) {
        self.model = model
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    @discardableResult
    public func migrate(_ connection: PostgresConnection) async throws -> [StrataMigration] {
        let logger = StrataPostgresLog.logger
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS "strata_migrations" ("model" TEXT NOT NULL, "version" INTEGER NOT NULL,
            "checksum" TEXT NOT NULL, "applied_at" DOUBLE PRECISION NOT NULL, PRIMARY KEY ("model", "version"))
            """, logger: logger)
        var current = 0
        for try await version in try await connection.query(
            #"SELECT COALESCE(MAX("version"), 0) FROM "strata_migrations""#, logger: logger
        ).decode(Int32.self) { current = Int(version) }
        var applied: [StrataMigration] = []
        for migration in migrations where migration.version > current {
            try await StrataPostgresTransaction.run(on: connection) { connection in
                for statement in (migration.sql + "\n").components(separatedBy: ";\n")
                where statement.split(separator: "\n").contains(where: { !$0.hasPrefix("--") && !$0.allSatisfy(\.isWhitespace) }) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO strata_migrations VALUES (\(model), \(migration.version), \(migration.checksum), 0)",
                    logger: logger)
            }
            applied.append(migration)
        }
        return applied
    }
}
