import StrataCore
import StrataSQLText

/// What SQLite's PRAGMAs do not tell about a table, read from its `CREATE TABLE` text in
/// `sqlite_master`: constraint names, check conditions and AUTOINCREMENT.
struct SQLiteTableSQL {
    /// A constraint as written, at table level or on a column.
    struct Constraint {
        enum Kind { case primaryKey, unique, check, foreignKey }
        var kind: Kind
        var name: String?
        /// The constrained columns (the column itself for a column constraint).
        var columns: [String]
        /// For checks: the condition's tokens, without the surrounding parentheses.
        var condition: [SQLToken] = []
    }

    var constraints: [Constraint] = []
    var autoincrementColumns: Set<String> = []

    /// Reads the text of a `CREATE TABLE` statement. Shapes it does not know are skipped: the
    /// PRAGMAs remain the source of truth for everything they report.
    init(sql: String) throws {
        let tokens = try SQLLexer(dialect: .sqlite).significantTokens(sql)
        guard let open = tokens.firstIndex(where: { $0.isSymbol("(") }), let close = Self.closing(tokens, open) else {
            return
        }
        for item in Self.split(tokens[(open + 1)..<close]) {
            guard let first = item.first else { continue }
            if ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"].contains(where: { first.isKeyword($0) }) {
                read(Array(item), column: nil)
            } else if first.isName {
                read(Array(item.dropFirst()), column: first.value)
            }
        }
    }

    /// Reads the constraints of a table item (`column == nil`) or of a column definition after its name.
    private mutating func read(_ tokens: [SQLToken], column: String?) {
        var pendingName: String?
        var current: Constraint?
        var awaitingGroup = false
        func finish() {
            if let current { constraints.append(current) }
            current = nil
            awaitingGroup = false
        }
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.isSymbol("(") {
                let close = Self.closing(tokens, index) ?? tokens.count - 1
                if awaitingGroup, var constraint = current {
                    let inside = tokens[(index + 1)..<close]
                    if constraint.kind == .check {
                        constraint.condition = Array(inside)
                    } else {
                        constraint.columns = Self.split(inside).compactMap { $0.first(where: \.isName)?.value }
                    }
                    current = constraint
                    awaitingGroup = false
                }
                index = close + 1
                continue
            }
            if token.isKeyword("CONSTRAINT"), index + 1 < tokens.count {
                finish()
                pendingName = tokens[index + 1].value
                index += 2
                continue
            }
            index += 1
            if token.isKeyword("REFERENCES"), current?.kind == .foreignKey {
                // The referenced table and columns of a FOREIGN KEY: PRAGMA foreign_key_list has them.
                awaitingGroup = false
                continue
            }
            let kind: Constraint.Kind?
            if token.isKeyword("PRIMARY") {
                kind = .primaryKey
            } else if token.isKeyword("UNIQUE") {
                kind = .unique
            } else if token.isKeyword("CHECK") {
                kind = .check
            } else if token.isKeyword("FOREIGN") || token.isKeyword("REFERENCES") {
                kind = .foreignKey
            } else {
                kind = nil
            }
            if let kind {
                finish()
                current = Constraint(kind: kind, name: pendingName, columns: column.map { [$0] } ?? [])
                pendingName = nil
                // Column constraints name their column already; only a check has a group to read.
                awaitingGroup = column == nil || kind == .check
            } else if token.isKeyword("AUTOINCREMENT"), let column {
                autoincrementColumns.insert(column)
            } else if ["NOT", "DEFAULT", "COLLATE", "GENERATED", "AS"].contains(where: { token.isKeyword($0) }) {
                // A constraint Strata does not compare by name (NOT NULL, DEFAULT…) takes the pending name.
                finish()
                pendingName = nil
            }
        }
        finish()
    }

    /// The index of the parenthesis closing the one at `open`.
    static func closing(_ tokens: [SQLToken], _ open: Int) -> Int? {
        var depth = 0
        for index in open..<tokens.count {
            if tokens[index].isSymbol("(") { depth += 1 }
            if tokens[index].isSymbol(")") {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// Splits at the commas outside parentheses.
    static func split(_ tokens: ArraySlice<SQLToken>) -> [ArraySlice<SQLToken>] {
        var items: [ArraySlice<SQLToken>] = []
        var depth = 0
        var start = tokens.startIndex
        for index in tokens.indices {
            if tokens[index].isSymbol("(") { depth += 1 }
            if tokens[index].isSymbol(")") { depth -= 1 }
            if depth == 0 && tokens[index].isSymbol(",") {
                items.append(tokens[start..<index])
                start = index + 1
            }
        }
        if start < tokens.endIndex { items.append(tokens[start..<tokens.endIndex]) }
        return items
    }
}
