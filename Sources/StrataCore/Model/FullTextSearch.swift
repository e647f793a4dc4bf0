/// An entity's full-text search (`search:`): the text fields indexed together and the language
/// their words are reduced in.
///
/// SQLite keeps an external-content FTS5 table `<table>_search` in step with the table by
/// triggers; PostgreSQL a `tsvector` column `<table>_search`, set by a trigger, with a GIN index.
public struct FullTextSearch: Hashable, Sendable {
    /// The searched fields (names), in declaration order: all `String` or `String?`.
    public var fields: [String]
    /// The language words are reduced in (``SearchLanguage/simple``: none).
    public var language: SearchLanguage
    /// Where `search:` is declared.
    public var location: SourceLocation
    /// Where each field is named, in the order of ``fields``.
    public var fieldLocations: [SourceLocation]

    /// Creates a declaration.
    public init(fields: [String], language: SearchLanguage, location: SourceLocation, fieldLocations: [SourceLocation] = []) {
        self.fields = fields
        self.language = language
        self.location = location
        self.fieldLocations = fieldLocations
    }

    /// The name of the search table (SQLite) or column (PostgreSQL) of `table`: `<table>_search`.
    public static func name(table: String) -> String { table + "_search" }

    /// The name of the GIN index over the PostgreSQL column of `table`: `<table>_search_idx`.
    public static func indexName(table: String) -> String { table + "_search_idx" }

    /// The name of the SQLite trigger of `table` that keeps its search table in step after
    /// `event` (`insert`, `update`, `delete`): `strata_search_<table>_<event>`. Migrations set
    /// aside the triggers of an adopted database, but not these: Strata's migrations manage them.
    public static func triggerName(table: String, event: String) -> String { "\(triggerPrefix)\(table)_\(event)" }

    /// The name of PostgreSQL's trigger, and of its function, that computes the search column of
    /// `table`: `strata_search_<table>`.
    public static func functionName(table: String) -> String { triggerPrefix + table }

    /// The prefix of the names of the triggers Strata's search creates.
    public static let triggerPrefix = "strata_search_"
}

/// A language of full-text search: PostgreSQL's text search configuration of that name, and on
/// SQLite the `porter` stemmer for ``english`` and plain `unicode61` for the others (SQLite has
/// no stemmer for them: words match as written, without accents, ignoring case).
public enum SearchLanguage: String, CaseIterable, Hashable, Sendable {
    /// No stemming: words match as written (ignoring case and, on SQLite, accents). The default.
    case simple
    case arabic, danish, dutch, english, finnish, french, german, greek, hungarian, indonesian, irish, italian,
        lithuanian, nepali, norwegian, portuguese, romanian, russian, spanish, swedish, tamil, turkish

    /// The PostgreSQL text search configuration.
    public var postgresConfiguration: String { rawValue }

    /// The SQLite FTS5 `tokenize` option.
    public var sqliteTokenizer: String {
        self == .english ? "porter unicode61 remove_diacritics 2" : "unicode61 remove_diacritics 2"
    }
}
