
/// Renders `<Model>PostgresDatabase.swift`: the model's database on a PostgreSQL server (a
/// `PostgresClient`, migrated through the ledger when it opens, reaching every entity's async
/// repository) and its per-connection access.
struct SwiftPostgresDatabaseRenderer {
    let schema: Schema
    let runtime: SwiftRuntime
    /// The command the generated header names.
    let regeneration: Regeneration

    func render() -> String {
        let names = RepositoryNames(schema: schema)
        let database = names.database(runtime)
        let access = names.access(runtime)
        var writer = SwiftWriter()
        writer.lines(FileHeader.lines(source: FileHeader.source(schema), comment: "//", regeneration: regeneration))
        writer.line()
        writer.line("import Foundation")
        writer.line("import \(runtime.clientModule)")
        writer.line("import \(runtime.module)")
        writer.line()
        writer.line("/// A \(schema.model) database on a PostgreSQL server, through a `PostgresClient` (whose `run()` must be")
        writer.line("/// running), migrated to the latest version of \(schema.model) through the migration ledger when it opens.")
        writer.line("/// Every entity's repository is one of its properties; every operation is async.")
        writer.block("public struct \(database): Sendable") { w in
            w.line("/// The migrations of every version, applied when the database opens.")
            w.wrapped(
                "public static let migrator = PostgresMigrator",
                ["model: \(SwiftNames.stringLiteral(schema.model))", "migrations: \(names.migrations(runtime)).all"]
            )
            w.line()
            w.line("/// The client.")
            w.line("public let client: PostgresClient")
            w.line()
            w.line("/// Uses the database of `client`, first migrating it to the latest version unless `migrate` is false.")
            w.line("/// Throws `StrataMigrationError` and leaves the database untouched when it is newer than this code,")
            w.line("/// belongs to another model, or was migrated with a version whose SQL has since changed.")
            w.block("public init(client: PostgresClient, migrate: Bool = true) async throws") { w in
                w.block("if migrate") { w in
                    w.line("_ = try await client.withConnection { connection in try await Self.migrator.migrate(connection) }")
                }
                w.line("self.client = client")
            }
            for entity in schema.entities {
                let accessor = names.accessor(entity)
                w.line()
                w.line("/// The `\(entity.name)` records.")
                w.lines(RepositoryNames.lintExemptions(member: accessor))
                w.block("public var \(SwiftNames.identifier(accessor)): \(runtime.repository)<\(names.record(entity))>") {
                    w in
                    w.line("\(runtime.repository)(client: client)")
                }
            }
            w.line()
            w.line("/// Runs `body` on one connection.")
            w.function(
                "public func read<T: Sendable>", parameters: ["_ body: @Sendable (\(access)) async throws -> T"],
                suffix: " async throws -> T"
            ) { w in
                w.line("try await client.withConnection { connection in try await body(\(access)(connection)) }")
            }
            w.line()
            w.line("/// Runs `body` in one transaction: committed when it returns, rolled back when it throws.")
            w.function(
                "public func write<T: Sendable>", parameters: ["_ body: @Sendable (\(access)) async throws -> T"],
                suffix: " async throws -> T"
            ) { w in
                w.line("try await PostgresTransaction.run(on: client) { connection in")
                w.line("    try await body(\(access)(connection))")
                w.line("}")
            }
        }
        writer.line()
        writer.line("/// Every entity of \(schema.model) on one connection, inside `\(database).read` or `write`.")
        writer.block("public struct \(access): Sendable") { w in
            w.line("/// The connection.")
            w.line("public let connection: PostgresConnection")
            w.line()
            w.line("/// The entities on `connection`.")
            w.block("public init(_ connection: PostgresConnection)") { w in
                w.line("self.connection = connection")
            }
            for entity in schema.entities {
                let accessor = names.accessor(entity)
                w.line()
                w.line("/// The `\(entity.name)` records.")
                w.lines(RepositoryNames.lintExemptions(member: accessor))
                w.block("public var \(SwiftNames.identifier(accessor)): \(runtime.access)<\(names.record(entity))>") { w in
                    w.line("\(runtime.access)(connection)")
                }
            }
        }
        return writer.text
    }
}
