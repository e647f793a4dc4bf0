import Foundation
import GRDB

/// Databases the tests make: SQLite files created from DDL in a temporary folder removed at exit.
public enum TestDatabases {
    /// A new temporary folder.
    public static func folder() throws -> URL {
        let url = TestScratch.path("strata-import")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A SQLite file made with `ddl`.
    public static func sqliteDatabase(_ ddl: String, in folder: URL, name: String = "app.sqlite") throws -> String {
        let path = folder.appendingPathComponent(name).path
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: ddl) }
        try queue.close()
        return path
    }
}
