import Logging
import PostgresNIO

/// The steps of a version run in several transactions (``PostgresMigrationScript``) that a run
/// completed, so that a run stopped half-way (a killed process, a lost connection, a lock it
/// gave up on) resumes after them:
///
/// ```sql
/// CREATE TABLE "strata_migration_steps" (
///     "model" TEXT NOT NULL, "version" INTEGER NOT NULL, "step" INTEGER NOT NULL,
///     "checksum" TEXT NOT NULL, "done" BOOLEAN NOT NULL, "resume_after" TEXT[],
///     PRIMARY KEY ("model", "version", "step"))
/// ```
///
/// A step's row is written in the transaction that completes it; a backfill's after each batch,
/// with the last key it reached (`resume_after`). The version's transaction deletes its rows,
/// and the table once it is empty: the ledger (`strata_migrations`) still says whole versions.
enum PostgresMigrationProgress {
    static let tableName = "strata_migration_steps"

    /// What a run recorded of a step.
    struct Recorded: Hashable {
        var done: Bool
        var resumeAfter: [String]?
    }

    static let createSQL = """
        CREATE TABLE IF NOT EXISTS "strata_migration_steps" (
            "model" TEXT NOT NULL,
            "version" INTEGER NOT NULL,
            "step" INTEGER NOT NULL,
            "checksum" TEXT NOT NULL,
            "done" BOOLEAN NOT NULL,
            "resume_after" TEXT[],
            PRIMARY KEY ("model", "version", "step")
        )
        """

    /// The steps recorded for `version` of `model`, by number. Throws
    /// ``StrataPostgresMigrationFailure``-worthy ``StepsOfAnotherMigration`` when they were
    /// recorded by a run of other SQL for that version.
    static func recorded(
        model: String, version: Int, checksum: String, _ connection: PostgresConnection, logger: Logger
    ) async throws -> [Int: Recorded] {
        let exists = try await connection.strataRows(
            "SELECT to_regclass('\"strata_migration_steps\"') IS NOT NULL", logger: logger)
        guard try exists.first?.decode(Bool.self) == true else { return [:] }
        let rows = try await connection.strataRows(
            #"""
            SELECT "step", "checksum", "done", "resume_after" FROM "strata_migration_steps"
            WHERE "model" = \#(model) AND "version" = \#(version) ORDER BY "step"
            """#,
            logger: logger)
        var steps: [Int: Recorded] = [:]
        for row in rows {
            let (step, recordedChecksum, done, resumeAfter) = try row.decode((Int, String, Bool, [String]?).self)
            guard recordedChecksum == checksum else {
                throw StepsOfAnotherMigration(version: version, recorded: recordedChecksum, expected: checksum)
            }
            steps[step] = Recorded(done: done, resumeAfter: resumeAfter)
        }
        return steps
    }

    /// Records `step` (in the caller's transaction).
    static func record(
        model: String, version: Int, checksum: String, step: Int, _ recorded: Recorded,
        _ connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.strataExecute(createSQL, logger: logger)
        _ = try await connection.strataRows(
            #"""
            INSERT INTO "strata_migration_steps" ("model", "version", "step", "checksum", "done", "resume_after")
            VALUES (\#(model), \#(version), \#(step), \#(checksum), \#(recorded.done), \#(recorded.resumeAfter))
            ON CONFLICT ("model", "version", "step")
            DO UPDATE SET "done" = excluded."done", "resume_after" = excluded."resume_after"
            """#,
            logger: logger)
    }

    /// Deletes the records of `version` of `model` (in the version's transaction), and the table
    /// when no other record is left.
    static func clear(model: String, version: Int, _ connection: PostgresConnection, logger: Logger) async throws {
        let exists = try await connection.strataRows(
            "SELECT to_regclass('\"strata_migration_steps\"') IS NOT NULL", logger: logger)
        guard try exists.first?.decode(Bool.self) == true else { return }
        _ = try await connection.strataRows(
            #"DELETE FROM "strata_migration_steps" WHERE "model" = \#(model) AND "version" = \#(version)"#,
            logger: logger)
        let left = try await connection.strataRows(
            #"SELECT EXISTS (SELECT 1 FROM "strata_migration_steps")"#, logger: logger)
        if try left.first?.decode(Bool.self) == false {
            try await connection.strataExecute(#"DROP TABLE "strata_migration_steps""#, logger: logger)
        }
    }

    /// Steps recorded by a run of other SQL for the version (the migration was edited, or
    /// another build of the app ran it).
    struct StepsOfAnotherMigration: Error, CustomStringConvertible {
        var version: Int
        var recorded: String
        var expected: String
        var description: String {
            "version \(version) was stopped half-way by a run of other SQL for it (checksum \(recorded.prefix(12)), "
                + "this migration's is \(expected.prefix(12))): finish it with the build that started it, "
                + "or remove its steps by hand (table strata_migration_steps)"
        }
    }
}
