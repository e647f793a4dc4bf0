/// One SQL statement of a script, without its terminating semicolon.
public struct SQLStatement: Hashable, Sendable {
    /// What a statement does, for callers that arrange statements (migrations, verification).
    public enum Kind: Hashable, Sendable {
        case createTable(table: String)
        case createIndex(name: String, table: String)
        /// `CREATE INDEX CONCURRENTLY` (PostgreSQL), which cannot run inside a transaction.
        case createIndexConcurrently(name: String, table: String)
        case addForeignKey(name: String, table: String)
        case addColumn(table: String, column: String)
        case dropColumn(table: String, column: String)
        case renameColumn(table: String, from: String, to: String)
        case renameTable(from: String, to: String)
        case renameConstraint(table: String, from: String, to: String)
        case dropTable(table: String)
        case dropIndex(name: String)
        case copyRows(from: String, to: String)
        case update(table: String, column: String)
        case alterColumn(table: String, column: String)
        case addConstraint(name: String, table: String)
        /// `ALTER TABLE … ADD CONSTRAINT … NOT VALID` (PostgreSQL): checks new rows only, at once.
        case addConstraintNotValid(name: String, table: String)
        /// `ALTER TABLE … VALIDATE CONSTRAINT` (PostgreSQL): checks the existing rows without
        /// blocking writes.
        case validateConstraint(name: String, table: String)
        case dropConstraint(name: String, table: String)
        case renameSequence(from: String, to: String)
        /// `ALTER INDEX … RENAME TO` (PostgreSQL).
        case renameIndex(from: String, to: String)
        /// `LOCK TABLE … IN ACCESS EXCLUSIVE MODE` (PostgreSQL), at the start of a transaction.
        case lockTables([String])
        /// SQL written by the schema's author (`migration.before` / `after`).
        case custom
        /// `BEGIN` and `COMMIT` (PostgreSQL): the bounds of a transaction in a migration run in
        /// several (``PostgresMigrationScript``), the last one the version's.
        case beginTransaction
        case commitTransaction
        /// `UPDATE` of a column that migrators run in batches of rows, each committed on its own
        /// (PostgreSQL), outside any transaction of the file.
        case backfill(table: String, column: String)
        /// The trigger function, and its trigger, that keeps a column being backfilled in step
        /// with the rows the application writes meanwhile (PostgreSQL).
        case createFunction(name: String)
        case createTrigger(name: String, table: String)
        case dropTrigger(name: String, table: String)
        case dropFunction(name: String)
        /// The full-text search table `name` of `table` (SQLite FTS5): created, or dropped. Not a
        /// table of the model: dropping it needs no foreign keys off.
        case createSearchTable(name: String, table: String)
        case dropSearchTable(name: String, table: String)
    }

    /// What the statement does.
    public var kind: Kind

    /// True for a statement PostgreSQL migrations run before, and outside, the version's
    /// transaction, each on its own: a concurrent index build, or a constraint added `NOT VALID`
    /// then validated (so that no lock that blocks writes is held while the table is scanned).
    public var runsBeforeTheTransaction: Bool {
        switch kind {
        case .createIndexConcurrently, .addConstraintNotValid, .validateConstraint, .backfill: true
        default: false
        }
    }
    /// Comment lines printed before the statement, already starting with `--`.
    public var comments: [String]
    /// The SQL text, rendered by a dialect renderer.
    public var sql: String

    /// Creates a statement.
    public init(kind: Kind, comments: [String] = [], sql: String) {
        self.kind = kind
        self.comments = comments
        self.sql = sql
    }

    /// The statement as it appears in a script: comments, then the SQL and `;`.
    public var rendered: String {
        (comments + [sql + ";"]).joined(separator: "\n")
    }
}

/// A SQL file: header comment lines, then statements separated by blank lines.
public struct SQLScript: Hashable, Sendable {
    /// Comment lines at the top, each starting with `--`.
    public var header: [String]
    /// The statements in execution order.
    public var statements: [SQLStatement]

    /// Creates a script.
    public init(header: [String], statements: [SQLStatement]) {
        self.header = header
        self.statements = statements
    }

    /// The file text, ending with a newline.
    public var rendered: String {
        let top = header.joined(separator: "\n")
        // Written into one buffer of the right size: a large model's script is megabytes.
        var size = top.utf8.count + 1
        for statement in statements {
            size += statement.sql.utf8.count + 3 + statement.comments.reduce(0) { $0 + $1.utf8.count + 1 }
        }
        var text = top
        text.reserveCapacity(size)
        for statement in statements {
            // Blocks are separated by an empty line (a statement's block is never empty).
            if !text.isEmpty { text += "\n\n" }
            for comment in statement.comments {
                text += comment
                text += "\n"
            }
            text += statement.sql
            text += ";"
        }
        text += "\n"
        return text
    }
}
