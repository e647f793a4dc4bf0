import Foundation
import GRDB
import Notebook
import StrataSQLite
import Testing

/// The generated repository of the consumer's model, on real SQLite databases (in memory and on disk).
@Suite struct NoteRepositoryTests {
    private func note(_ title: String, at seconds: Double, pinned: Bool = false, color: Color = .plain) -> Note {
        Note(title: title, createdAt: Date(timeIntervalSince1970: seconds), pinned: pinned, color: color)
    }

    @Test func insertsFiltersSortsUpdatesAndDeletes() throws {
        let database = try NotebookDatabase.inMemory()
        let notes = database.notes
        let inserted = try notes.insert(contentsOf: [
            note("groceries", at: 10),
            note("ideas", at: 30, color: .green),
            note("taxes", at: 20, pinned: true, color: .red),
        ])
        #expect(try notes.count() == 3)
        #expect(try notes.find(id: inserted[1].id) == inserted[1])

        let shown = try notes.fetchAll(orderBy: { [$0.pinned.descending, $0.createdAt.descending] })
        #expect(shown.map(\.title) == ["taxes", "ideas", "groceries"])
        #expect(shown == Note.displayOrder(inserted))

        let colored = try notes.fetchAll(where: { $0.color != .plain }, orderBy: { [$0.title.ascending] })
        #expect(colored.map(\.title) == ["ideas", "taxes"])

        let updated = try notes.updateChanges(inserted[0]) {
            $0.pinned = true
            $0.color = .blue
        }
        #expect(updated?.pinned == true && updated?.color == .blue && updated?.title == "groceries")
        #expect(try notes.count(where: { $0.pinned == true }) == 2)

        #expect(try notes.delete(id: inserted[2].id))
        #expect(try notes.find(id: inserted[2].id) == nil)
        #expect(try notes.deleteAll(where: { $0.color == .green }) == 1)
        #expect(try notes.fetchAll().map(\.title) == ["groceries"])
    }

    @Test func aVersion1FileIsMigratedToVersion2WithTheNewFieldsDefaults() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notebook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Notebook.sqlite").path

        // The database as version 1 of the app left it: only v1's migration applied, one row in it.
        let id = UUID()
        let created = Date(timeIntervalSince1970: 1_000)
        do {
            let pool = try DatabasePool(path: path)
            try NotebookDatabase.migrator.migrate(pool, to: 1)
            try pool.write { db in
                let columns = try db.columns(in: "note").map(\.name)
                #expect(columns == ["id", "title", "body", "created_at"])
                try db.execute(
                    sql: #"INSERT INTO "note" ("id", "title", "body", "created_at") VALUES (?, ?, ?, ?)"#,
                    arguments: [id, "kept", "from v1", SQLiteStorage.seconds(of: created)]
                )
            }
        }

        let database = try NotebookDatabase(path: path)
        #expect(try NotebookDatabase.migrator.currentVersion(in: database.writer) == 2)
        let migrated = try database.notes.find(id: id)
        #expect(
            migrated
                == Note(
                    id: id, title: "kept", body: "from v1", createdAt: created,
                    pinned: false,
                    color: .plain))
    }
}
