import StrataSQLite

/// The shape of a database as far as Strata declares it: tables, columns with their types,
/// nullability and defaults, keys, indexes, foreign keys and checks, with their names.
///
/// The same value is read from a live database (``SQLiteIntrospector``,
/// ``PostgresIntrospector``) and derived from a model (``ExpectedSchema``), so that the two can be
/// compared with ``SchemaComparison``. Defaults and checks are held in a canonical form
/// (``SQLCanonicalForm``), in which the decorations a database adds when it prints them back
/// (casts, parentheses, `= ANY (ARRAY[…])`) are gone.
public struct DatabaseSchema: Hashable, Sendable {
    /// A column.
    public struct Column: Hashable, Sendable {
        /// The column name.
        public var name: String
        /// The declared type, as the database spells it in its catalog (`INTEGER`, `timestamp with time zone`).
        public var type: String
        /// True when NULL is allowed.
        public var isNullable: Bool
        /// The default in canonical form (``SQLCanonicalForm/expression(_:dialect:)``), or nil without one.
        public var defaultValue: String?
        /// True when the database assigns the value (SQLite AUTOINCREMENT, PostgreSQL identity).
        public var isAutoincrement: Bool
        /// For a generated column, how it is kept: `VIRTUAL` (computed when read) or `STORED`.
        public var generated: String?
        /// For a PostgreSQL `tsvector` column (a full-text search vector): the columns of its table
        /// it is built from, as its generation expression or its `tsvector_update_trigger`
        /// trigger names them; empty when it is kept otherwise (a hand-written trigger function).
        /// Nil for any other column. Read by `import database`; not compared by ``SchemaComparison``.
        public var searchSources: [String]?
        /// For a `tsvector` column: the text search configuration its words are reduced with, as its
        /// generation expression (`to_tsvector('english', …)`) or its `tsvector_update_trigger`
        /// trigger names it, without a `pg_catalog.` prefix (`english`); nil when it is not named
        /// there (a configuration read from a column, a hand-written trigger function). Read by
        /// `import database`; not compared by ``SchemaComparison``.
        public var searchConfiguration: String?

        /// Creates a column.
        public init(
            name: String, type: String, isNullable: Bool, defaultValue: String?, isAutoincrement: Bool,
            generated: String? = nil, searchSources: [String]? = nil, searchConfiguration: String? = nil
        ) {
            self.name = name
            self.type = type
            self.isNullable = isNullable
            self.defaultValue = defaultValue
            self.isAutoincrement = isAutoincrement
            self.generated = generated
            self.searchSources = searchSources
            self.searchConfiguration = searchConfiguration
        }
    }

    /// A primary key or unique constraint.
    public struct Key: Hashable, Sendable {
        /// The constraint name, when the database records one.
        public var name: String?
        /// The columns, in key order.
        public var columns: [String]

        /// Creates a key.
        public init(name: String?, columns: [String]) {
            self.name = name
            self.columns = columns
        }
    }

    /// An index created with CREATE INDEX (not one that backs a key constraint).
    public struct Index: Hashable, Sendable {
        /// The index name.
        public var name: String
        /// The columns, in index order.
        public var columns: [String]
        /// True for a unique index.
        public var isUnique: Bool
        /// A partial index's condition in canonical form; nil for a full index.
        public var condition: String?

        /// Creates an index.
        public init(name: String, columns: [String], isUnique: Bool, condition: String? = nil) {
            self.name = name
            self.columns = columns
            self.isUnique = isUnique
            self.condition = condition
        }
    }

    /// A foreign key.
    public struct ForeignKey: Hashable, Sendable {
        /// The constraint name, when the database records one.
        public var name: String?
        /// The referencing columns.
        public var columns: [String]
        /// The referenced table.
        public var referencedTable: String
        /// The referenced columns.
        public var referencedColumns: [String]
        /// The action on delete: `CASCADE`, `SET NULL`, `SET DEFAULT`, `RESTRICT` or `NO ACTION`.
        public var onDelete: String

        /// Creates a foreign key.
        public init(
            name: String?, columns: [String], referencedTable: String, referencedColumns: [String], onDelete: String
        ) {
            self.name = name
            self.columns = columns
            self.referencedTable = referencedTable
            self.referencedColumns = referencedColumns
            self.onDelete = onDelete
        }
    }

    /// What a check constraint requires.
    public enum CheckRule: Hashable, Sendable, CustomStringConvertible {
        /// The column holds one of these values (canonical literals, sorted), or NULL.
        case allowedValues(column: String, values: [String])
        /// Any other condition, in canonical form.
        case expression(String)

        public var description: String {
            switch self {
            case .allowedValues(let column, let values):
                return "\(SQLCanonicalForm.identifier(column)) IN (\(values.joined(separator: ", ")))"
            case .expression(let text):
                return text
            }
        }
    }

    /// A check constraint.
    public struct Check: Hashable, Sendable {
        /// The constraint name, when it has one.
        public var name: String?
        /// What it requires.
        public var rule: CheckRule

        /// Creates a check.
        public init(name: String?, rule: CheckRule) {
            self.name = name
            self.rule = rule
        }
    }

    /// A table.
    public struct Table: Hashable, Sendable {
        /// The table name.
        public var name: String
        /// The columns, in table order.
        public var columns: [Column]
        /// The primary key, if any.
        public var primaryKey: Key?
        /// Unique constraints, sorted by name then columns.
        public var uniqueConstraints: [Key]
        /// Indexes, sorted by name.
        public var indexes: [Index]
        /// Foreign keys, sorted by columns.
        public var foreignKeys: [ForeignKey]
        /// Checks, sorted by name then rule.
        public var checks: [Check]

        /// Creates a table; the constraint lists are sorted into their canonical order.
        public init(
            name: String, columns: [Column], primaryKey: Key?, uniqueConstraints: [Key] = [], indexes: [Index] = [],
            foreignKeys: [ForeignKey] = [], checks: [Check] = []
        ) {
            self.name = name
            self.columns = columns
            self.primaryKey = primaryKey
            self.uniqueConstraints = uniqueConstraints.sorted {
                ($0.name ?? "", $0.columns.joined(separator: "\u{0}")) < (
                    $1.name ?? "", $1.columns.joined(separator: "\u{0}")
                )
            }
            self.indexes = indexes.sorted { $0.name < $1.name }
            self.foreignKeys = foreignKeys.sorted {
                ($0.columns.joined(separator: "\u{0}"), $0.name ?? "") < (
                    $1.columns.joined(separator: "\u{0}"), $1.name ?? ""
                )
            }
            self.checks = checks.sorted { ($0.name ?? "", $0.rule.description) < ($1.name ?? "", $1.rule.description) }
        }

        /// The column with this name.
        public func column(named name: String) -> Column? {
            columns.first { $0.name == name }
        }
    }

    /// The tables, sorted by name.
    public var tables: [Table]
    /// Tables the database keeps for itself or shapes Strata does not declare (virtual tables
    /// and their shadow tables, partitioned tables and their partitions): not in `tables`, named
    /// so that importing leaves each out whole and says so.
    public var unmanaged: [Unmanaged]
    /// For `import database` of a SQLite database: what the values of each column that would
    /// import as `String` say about dates (by table, then column); empty otherwise.
    public var textDates: [String: [String: TextDateSurvey]] = [:]

    /// A table that is not one of `tables`, and what it is.
    public struct Unmanaged: Hashable, Sendable {
        /// The table's name.
        public var name: String
        /// What it is, in words: `virtual table (fts5)`, `shadow table of virtual table "docs"`.
        public var kind: String
        /// For an FTS5 table over the rows of a table (`content='note'`): that table and the
        /// columns it indexes, which Strata declares as the table's `search:`.
        public var fullTextSearch: (table: String, columns: [String])?

        /// Creates an entry.
        public init(name: String, kind: String, fullTextSearch: (table: String, columns: [String])? = nil) {
            self.name = name
            self.kind = kind
            self.fullTextSearch = fullTextSearch
        }

        public static func == (lhs: Unmanaged, rhs: Unmanaged) -> Bool {
            lhs.name == rhs.name && lhs.kind == rhs.kind && lhs.fullTextSearch?.table == rhs.fullTextSearch?.table
                && lhs.fullTextSearch?.columns == rhs.fullTextSearch?.columns
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(kind)
        }
    }

    /// Creates a schema; tables are sorted by name.
    public init(tables: [Table], unmanaged: [Unmanaged] = []) {
        self.tables = tables.sorted { $0.name < $1.name }
        self.unmanaged = unmanaged.sorted { $0.name < $1.name }
    }

    /// The tables Strata keeps in the databases it migrates (the migration ledger, the SQLite
    /// storage format): never imported, and not part of a model's expected schema.
    public static let strataTables: Set<String> = [StrataLedgerTable.name, StrataStorageFormat.tableName]

    /// The table with this name.
    public func table(named name: String) -> Table? {
        tables.first { $0.name == name }
    }

    /// The schema without the tables named (a migration ledger, for example).
    public func removingTables(_ names: Set<String>) -> DatabaseSchema {
        DatabaseSchema(tables: tables.filter { !names.contains($0.name) }, unmanaged: unmanaged)
    }
}
