/// Renders `<Model>Database.swift`: the database type of a model (opening and migrating a file
/// or an in-memory database, reaching every entity's repository) and its per-connection access.
struct SwiftDatabaseRenderer {
    let schema: Schema
    /// The model's `coredata-mapping.json` when it was imported from Core Data: the database type
    /// then gets `importCoreDataStore(at:)` (where `StrataCoreDataStore` can be imported).
    var coreDataMapping: String? = nil
    /// The command the generated header names.
    let regeneration: Regeneration

    func render() -> String {
        let names = RepositoryNames(schema: schema)
        let model = schema.model
        var writer = SwiftWriter()
        writer.lines(FileHeader.lines(source: FileHeader.source(schema), comment: "//", regeneration: regeneration))
        writer.line()
        writer.line("import Foundation")
        writer.line("import GRDB")
        writer.line("import StrataSQLite")
        if coreDataMapping != nil {
            writer.conditional("canImport(StrataCoreDataStore)") { w in w.line("import StrataCoreDataStore") }
        }
        writer.line()
        writer.line(
            "/// A \(model) database: a SQLite file (a `DatabasePool`: WAL mode, concurrent reads) or an in-memory")
        writer.line(
            "/// database (a `DatabaseQueue`), migrated to the latest version of \(model) through the migration ledger")
        writer.line("/// when it opens. Every entity's repository is one of its properties.")
        writer.block("public struct \(names.database): Sendable") { w in
            w.line("/// The migrations of every version, applied when a database opens.")
            w.wrapped(
                "public static let migrator = SQLiteMigrator",
                ["model: \(SwiftNames.stringLiteral(model))", "migrations: \(names.migrations).all"]
            )
            w.line()
            w.line("/// The GRDB database: a `DatabasePool` for a file, a `DatabaseQueue` in memory.")
            w.line("public let writer: any GRDB.DatabaseWriter")
            w.line()
            w.line(
                "/// Opens the database file at `path` (creating it when absent) and migrates it to the latest version."
            )
            w.line(
                "/// Throws `StrataMigrationError` and leaves the file untouched when it is newer than this code, belongs to"
            )
            w.line("/// another model, or was migrated with a version whose SQL has since changed.")
            w.block("public init(path: String, configuration: GRDB.Configuration = GRDB.Configuration()) throws") { w in
                w.line("try self.init(writer: GRDB.DatabasePool(path: path, configuration: configuration))")
            }
            w.line()
            w.line("/// Migrates the database behind `writer` to the latest version and uses it.")
            w.block("public init(writer: any GRDB.DatabaseWriter) throws") { w in
                w.line("try Self.migrator.migrate(writer)")
                w.line("self.writer = writer")
            }
            w.line()
            w.line("/// A new, empty in-memory database at the latest version, for tests and previews.")
            w.function(
                "public static func inMemory",
                parameters: ["configuration: GRDB.Configuration = GRDB.Configuration()"],
                suffix: " throws -> Self"
            ) { w in
                w.line("try Self(writer: GRDB.DatabaseQueue(configuration: configuration))")
            }
            for entity in schema.entities {
                let accessor = names.accessor(entity)
                w.line()
                w.line("/// The `\(entity.name)` records.")
                w.lines(RepositoryNames.lintExemptions(member: accessor))
                w.block("public var \(SwiftNames.identifier(accessor)): SQLiteRepository<\(names.record(entity))>") { w in
                    w.line("SQLiteRepository(writer: writer)")
                }
            }
            w.line()
            w.line("/// Runs `body` in one read: it sees one consistent state of the database.")
            w.block("public func read<T>(_ body: (\(names.access)) throws -> T) throws -> T") { w in
                w.line("try writer.read { db in try body(\(names.access)(db)) }")
            }
            w.line()
            w.line("/// Runs `body` in one transaction: committed when it returns, rolled back when it throws.")
            w.block("public func write<T>(_ body: (\(names.access)) throws -> T) throws -> T") { w in
                w.line("try writer.write { db in try body(\(names.access)(db)) }")
            }
            w.line()
            w.line("/// Runs `body` in one read, off the caller's thread.")
            w.function(
                "public func read<T: Sendable>",
                parameters: ["_ body: @escaping @Sendable (\(names.access)) throws -> T"],
                suffix: " async throws -> T"
            ) { w in
                w.line("try await writer.read { db in try body(\(names.access)(db)) }")
            }
            w.line()
            w.line("/// Runs `body` in one transaction, off the caller's thread.")
            w.function(
                "public func write<T: Sendable>",
                parameters: ["_ body: @escaping @Sendable (\(names.access)) throws -> T"],
                suffix: " async throws -> T"
            ) { w in
                w.line("try await writer.write { db in try body(\(names.access)(db)) }")
            }
            w.line()
            w.line("/// The value `fetch` computes, now and after every committed change to what it read.")
            w.function(
                "public func observe<T: Sendable & Equatable>",
                parameters: ["_ fetch: @escaping @Sendable (\(names.access)) throws -> T"],
                suffix: " -> AsyncValueObservation<T>"
            ) { w in
                w.line("StrataObservation.values(in: writer) { db in try fetch(\(names.access)(db)) }")
            }
            w.line()
            w.line("/// The value `fetch` computes, kept current: an `@Observable` object for SwiftUI, updated after every")
            w.line("/// committed change to what it read; `initial` until the first read succeeds.")
            w.line("@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)")
            w.line("@MainActor")
            w.function(
                "public func live<T: Sendable & Equatable>",
                parameters: ["initial: T", "_ fetch: @escaping @Sendable (\(names.access)) throws -> T"],
                suffix: " -> StrataLiveQuery<T>"
            ) { w in
                w.line("StrataLiveQuery(in: writer, initial: initial) { db in try fetch(\(names.access)(db)) }")
            }
            w.line()
            w.line("/// The records or rows `fetch` reads, kept current (see `live(initial:_:)`); empty until the first read")
            w.line("/// succeeds.")
            w.line("@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)")
            w.line("@MainActor")
            w.function(
                "public func live<Element: Sendable & Equatable>",
                parameters: ["_ fetch: @escaping @Sendable (\(names.access)) throws -> [Element]"],
                suffix: " -> StrataLiveQuery<[Element]>"
            ) { w in
                w.line("live(initial: []) { try fetch($0) }")
            }
        }
        writer.line()
        writer.line("/// Every entity of \(model) on one connection, inside `\(names.database).read` or `write`.")
        writer.block("public struct \(names.access)") { w in
            w.line("/// The connection.")
            w.line("public let db: GRDB.Database")
            w.line()
            w.line("/// The entities on `db`.")
            w.block("public init(_ db: GRDB.Database)") { w in
                w.line("self.db = db")
            }
            for entity in schema.entities {
                let accessor = names.accessor(entity)
                w.line()
                w.line("/// The `\(entity.name)` records.")
                w.lines(RepositoryNames.lintExemptions(member: accessor))
                w.block("public var \(SwiftNames.identifier(accessor)): SQLiteAccess<\(names.record(entity))>") { w in
                    w.line("SQLiteAccess(db)")
                }
            }
        }
        if let coreDataMapping { renderCoreDataImport(coreDataMapping, names: names, &writer) }
        return writer.text
    }

    /// `<Model>Database.coreDataMapping` and `importCoreDataStore(at:)`.
    private func renderCoreDataImport(_ mapping: String, names: RepositoryNames, _ writer: inout SwiftWriter) {
        writer.line()
        writer.conditional("canImport(StrataCoreDataStore)") { writer in
            renderCoreDataExtension(mapping, names: names, &writer)
        }
    }

    private func renderCoreDataExtension(_ mapping: String, names: RepositoryNames, _ writer: inout SwiftWriter) {
        writer.block("extension \(names.database)") { w in
            w.line("/// The mapping `strata import coredata` used when it imported this model from Core Data.")
            let literal = SwiftNames.multilineStringLiteral(mapping)
            w.line("public static let coreDataMapping = " + (literal.first ?? ""))
            for line in literal.dropFirst().dropLast() { w.line(line.isEmpty ? "" : "    " + line) }
            w.line("    " + String((literal.last ?? "").dropLast()))
            w.line()
            w.line(
                "/// Moves the rows of the Core Data SQLite store at `storeURL` into this database, once, on first launch:"
            )
            w.line(
                "/// the store is opened read-only and never written; its version is worked out from its tables; its")
            w.line(
                "/// rows are migrated to the latest version and inserted in one transaction, all or none. The database"
            )
            w.line("/// must hold no rows of the model yet; a second call does nothing and returns `.alreadyImported`.")
            w.line("@discardableResult")
            w.block("public func importCoreDataStore(at storeURL: URL) throws -> CoreDataStoreImporter.Outcome") { w in
                w.line(
                    "try CoreDataStoreImporter(mappingJSON: Data(Self.coreDataMapping.utf8), migrator: Self.migrator)")
                w.line("    .importStore(at: storeURL.path(percentEncoded: false), into: writer)")
            }
        }
    }
}
