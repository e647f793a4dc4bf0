import GRDB
import StrataRuntime

/// The views and triggers of a SQLite database, which Strata does not declare but an adopted
/// database has: a migration's table rebuild (new table, copy, drop, rename) would make SQLite
/// refuse the rename for a view that names the table, and drops the table's triggers. They are
/// set aside before a version's statements run and put back, as written, after them, inside the
/// version's transaction; one that no longer works on the migrated tables is an error naming
/// it, and the version is rolled back, never a silent drop. (A view is read once to tell; a
/// trigger's body is checked by SQLite only when it fires.) The triggers of Strata's own
/// full-text search (`strata_search_…`) stay: the migrations drop and create them, and they keep
/// the search in step with the rows a migration changes in place.
struct SQLiteDependentObjects {
    /// A view or trigger as `sqlite_master` holds it.
    struct Object {
        var type: String
        var name: String
        var sql: String
    }

    /// The objects set aside, in the order they were created.
    let objects: [Object]

    /// Drops every view and trigger (those created later first) and returns them.
    static func setAside(_ db: Database) throws -> SQLiteDependentObjects {
        let objects = try Row.fetchAll(
            db,
            sql: """
                SELECT type, name, sql FROM sqlite_master
                WHERE type IN ('view', 'trigger') AND sql IS NOT NULL
                AND NOT (type = 'trigger' AND name LIKE 'strata\\_search\\_%' ESCAPE '\\')
                ORDER BY rowid
                """
        ).map { row in
            Object(
                type: try row.decode(String.self, forColumn: "type"), name: try row.decode(String.self, forColumn: "name"),
                sql: try row.decode(String.self, forColumn: "sql"))
        }
        for object in objects.reversed() {
            let keyword = object.type == "view" ? "VIEW" : "TRIGGER"
            try db.execute(sql: "DROP \(keyword) IF EXISTS \(SQLIdentifier.quoted(object.name))")
        }
        return SQLiteDependentObjects(objects: objects)
    }

    /// Creates the objects again, in their order; throws naming the first that fails.
    func restore(_ db: Database, model: String, version: Int) throws {
        for object in objects {
            do {
                try db.execute(sql: object.sql)
                // SQLite checks a view's columns only when it is read.
                if object.type == "view" {
                    _ = try Row.fetchOne(db, sql: "SELECT * FROM \(SQLIdentifier.quoted(object.name)) LIMIT 0")
                }
            } catch let error as DatabaseError {
                throw StrataMigrationError.dependentObjectLost(
                    model: model, version: version, object: "\(object.type) \"\(object.name)\"",
                    reason: error.message ?? "\(error.resultCode)")
            }
        }
    }
}
