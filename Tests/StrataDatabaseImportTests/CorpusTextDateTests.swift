import Foundation
import GRDB
import GRDBSQLite
import StrataDatabaseImport
@testable import StrataSQLite
import StrataStorage
import Testing

/// The text dates of the real databases of the corpus (`../shared/corpus/databases`, when it is
/// next to this clone, as on CI): Chinook's `DATETIME` and Northwind's `DATE` and `DATETIME`
/// columns import as Date fields with a `format:`, and every value reads as a Date and is written
/// back by the runtime as the very text the database holds.
@Suite("Corpus: text dates read and written back exactly")
struct CorpusTextDateTests {
    static let databases = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/databases")
    static let corpusIsHere = FileManager.default.fileExists(atPath: databases.path)

    @Test(
        .enabled(if: corpusIsHere, "the corpus (../shared/corpus) is not next to this clone"),
        arguments: [("chinook/chinook.sqlite", 3), ("northwind/northwind.sqlite", 5)])
    func everyDateRoundTrips(file: String, dateColumns: Int) throws {
        // A copy: the corpus is read-only and never opened in place.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-corpus-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: Self.databases.appendingPathComponent(file), to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let schema = try DatabaseImporter.readSQLite(path: copy.path)
        let columns = schema.textDates.flatMap { table, columns in
            columns.compactMap { column, survey -> (String, String, SQLiteDateText)? in
                if case .dates(let format) = survey { return (table, column, format) }
                return nil
            }
        }
        #expect(columns.count == dateColumns, "\(columns)")
        let queue = try DatabaseQueue(path: copy.path)
        var values = 0
        try queue.read { db in
            let echo = try StrataStatement(db, sql: "SELECT ?")
            for (table, column, format) in columns {
                let select = try StrataStatement(
                    db, sql: "SELECT \"\(column)\" FROM \"\(table)\" WHERE \"\(column)\" IS NOT NULL")
                let pairs = try select.fetchAll { statement -> (String, Date) in
                    (try StrataRead.string(sqlite3_column_value(statement, 0), statement, 0), try StrataRead.date(sqlite3_column_value(statement, 0), statement, 0, as: format))
                }
                for (text, date) in pairs {
                    echo.reset()
                    try StrataBind.date(echo.handle, 1, date, as: format)
                    let written = try echo.fetchOne { try StrataRead.string(sqlite3_column_value($0, 0), $0, 0) }
                    #expect(written == text, "\(table).\(column)")
                    values += 1
                }
            }
        }
        #expect(values > 0)
    }
}
