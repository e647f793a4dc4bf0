/// The full-text search of a table, as its entity's `search:` declares it: the searched columns and
/// the language. Generated code describes it once per searchable record type
/// (``StrataSearchable/strataSearch``); each database's dialect renders the SQL that uses it
/// (``StrataSQLDialect/fullText(_:of:query:)``): SQLite's FTS5 table `<table>_search`, PostgreSQL's
/// `tsvector` column `<table>_search`.
public struct StrataSearch: Hashable, Sendable {
    /// The searched table.
    public let table: String
    /// The searched columns, in declaration order.
    public let columns: [String]
    /// The language (PostgreSQL's text search configuration: `simple`, `english`, …).
    public let language: String
    /// What the query calls the searched table's rows: the table, or its alias in a join.
    public let rows: String

    /// Describes the search of `table` over `columns` in `language`.
    public init(table: String, columns: [String], language: String = "simple") {
        self.init(table: table, columns: columns, language: language, rows: table)
    }

    private init(table: String, columns: [String], language: String, rows: String) {
        self.table = table
        self.columns = columns
        self.language = language
        self.rows = rows
    }

    /// The same search of the table's rows under `alias` (a join's).
    public func aliased(_ alias: String) -> StrataSearch {
        StrataSearch(table: table, columns: columns, language: language, rows: alias)
    }

    /// The SQLite FTS5 table, or PostgreSQL `tsvector` column, that indexes the words: `<table>_search`.
    public var name: String { table + "_search" }

    /// The search query of a user's text, bound as one value: each word of `text` (split at
    /// white space and control characters, keeping those with a letter or digit) as a double-quoted string with its `"`
    /// doubled, all required (`"swift" "nio"`); nil when `text` has no word.
    ///
    /// Never FTS5 or `tsquery` syntax: `AND`, `NEAR(`, `*`, `-`, `:` and quotes in the text are
    /// words or part of words, so nothing a user types can widen or break the query. SQLite reads
    /// each quoted string as a phrase of its tokens; PostgreSQL's `plainto_tsquery` ignores the
    /// quotes and requires every word.
    public static func query(_ text: String) -> String? {
        var query = ""
        // Control characters separate words too: a NUL is no text to PostgreSQL.
        let separates = { (character: Character) in
            character.isWhitespace || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
        for word in text.split(whereSeparator: separates) {
            guard word.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
            if !query.isEmpty { query += " " }
            query += "\""
            query += word.replacingOccurrences(of: "\"", with: "\"\"")
            query += "\""
        }
        return query.isEmpty ? nil : query
    }
}

/// A record type whose entity declares `search:`: generated code conforms, so that only these
/// types have ``StrataPlan/search(_:where:limit:)`` and ``StrataColumns/matches(_:)``.
public protocol StrataSearchable: StrataRecord {
    /// The table's full-text search.
    static var strataSearch: StrataSearch { get }
}

/// A piece of full-text search SQL, which each database writes its own way
/// (``StrataSQLDialect/fullText(_:of:query:)``).
public enum StrataFullTextPart: Hashable, Sendable {
    /// A condition on the table's rows: they match the bound query.
    case filter
    /// What a ranked search joins to the table (after `FROM table`): the rows matching the bound
    /// query, with their rank.
    case join
    /// The order key of a ranked search, best match first (after ``join``).
    case rank
}
