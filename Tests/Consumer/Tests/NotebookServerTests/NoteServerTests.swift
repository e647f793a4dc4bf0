import Foundation
import NotebookServer
import PostgresNIO
import StrataPostgres
import Testing

/// The generated PostgreSQL repository of the consumer's model on a real server: the one whose
/// URL is in STRATA_CONSUMER_POSTGRES_URL (CI starts it). Under CI=true a missing URL fails.
@Suite struct NoteServerTests {
    static let url = ProcessInfo.processInfo.environment["STRATA_CONSUMER_POSTGRES_URL"]

    @Test func migratesOnOpenThenInsertsFiltersUpdatesAndDeletes() async throws {
        guard let text = Self.url, let url = URLComponents(string: text), let host = url.host else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("STRATA_CONSUMER_POSTGRES_URL is not set, and CI=true requires the server test")
            }
            return
        }
        let client = PostgresClient(
            configuration: .init(
                host: host, port: url.port ?? 5432, username: url.user ?? "postgres", password: url.password,
                database: String(url.path.dropFirst()), tls: .disable))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let database = try await NotebookPostgresDatabase(client: client)
            let notes = database.notes
            try await notes.deleteAll()
            let inserted = try await notes.insert(contentsOf: [
                Note(title: "groceries", createdAt: Date(timeIntervalSince1970: 10)),
                Note(title: "taxes", createdAt: Date(timeIntervalSince1970: 20), pinned: true, color: .red),
            ])
            #expect(try await notes.find(id: inserted[1].id) == inserted[1])
            let shown = try await notes.fetchAll(orderBy: { [$0.pinned.descending, $0.createdAt.descending] })
            #expect(shown.map(\.title) == ["taxes", "groceries"])
            let updated = try await notes.updateChanges(inserted[0]) { $0.color = .blue }
            #expect(updated?.color == .blue && updated?.title == "groceries")
            try await database.write { access in
                try await access.notes.deleteAll(where: { $0.color == .red })
            }
            #expect(try await notes.fetchAll().map(\.title) == ["groceries"])
        }
    }
}
