import GRDB

extension StrataDateConversion {
    /// Runs the conversion on `db`, inside the caller's transaction: one `UPDATE` per column, or,
    /// for a column in a unique index (a Date key, or a reference to one), the same change row by
    /// row in ascending order of the column, so that no row passes through the value another row
    /// still holds (SQLite checks uniqueness row by row): two dates exactly 978307200 seconds apart
    /// convert without a false conflict.
    func run(_ db: Database) throws {
        for column in columns {
            guard try Self.isInUniqueIndex(column, db) else {
                try db.execute(sql: column.conversionSQL(from: .secondsSince1970))
                continue
            }
            let rows = try Int64.fetchAll(db, sql: column.rowsInOrderSQL)
            let update = try db.makeStatement(sql: column.conversionSQL(from: .secondsSince1970, rowByRow: true))
            for row in rows {
                try update.execute(arguments: [row])
            }
        }
    }

    /// True when a unique index (a primary key, a UNIQUE constraint or index) of the column's
    /// table holds the column.
    static func isInUniqueIndex(_ column: SQLiteDateColumn, _ db: Database) throws -> Bool {
        let indexes = try Row.fetchAll(db, sql: "SELECT name, \"unique\" FROM pragma_index_list(?)", arguments: [column.table])
        for index in indexes where (index["unique"] as Int64?) == 1 {
            guard let name = index["name"] as String? else { continue }
            let columns = try String?.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [name])
            if columns.contains(column.column) { return true }
        }
        return false
    }
}
