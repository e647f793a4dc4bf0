import StrataCore

/// The proof that each full-text search of a version agrees with the rows the chain of migrations
/// left: SQLite's FTS5 `integrity-check` of the external-content table against its rows
/// (`rank = 1`), PostgreSQL's search column equal, row by row, to the `tsvector` the version
/// declares (fields and language).
enum SearchCheck {
    static func check(_ schema: Schema, on database: some VerificationDatabase, report: inout VerificationReport) async {
        let dialect = database.dialect
        for entity in schema.entities {
            guard let search = entity.search else { continue }
            let name = dialect.quoted(FullTextSearch.name(table: entity.table))
            let what = "full-text search of \(entity.name) (\(search.fields.joined(separator: ", ")); \(search.language.rawValue))"
            do {
                switch dialect {
                case .sqlite:
                    _ = try await database.rowsAfter("INSERT INTO \(name)(\(name), rank) VALUES ('integrity-check', 1)", "SELECT 1")
                case .postgres:
                    let document = PostgresRules().searchDocument(search, of: entity)
                    let rows = try await database.textRows(
                        "SELECT CAST(count(*) AS TEXT) FROM \(dialect.quoted(entity.table)) WHERE \(name) IS DISTINCT FROM \(document)")
                    let differing = rows.first?.first.flatMap { $0 } ?? "?"
                    guard differing == "0" else {
                        report.dataProblems.append("\(what): \(differing) rows whose search column is not their declared text")
                        continue
                    }
                }
                report.notes.append("\(what): the index agrees with every row")
            } catch {
                report.dataProblems.append("\(what): the index does not agree with the rows (\(error))")
            }
        }
    }
}
