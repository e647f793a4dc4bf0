/// The model of the migration benchmark, `MigrationBench`, and the same changes written by hand.
///
/// - v1: `Event` with an integer key, text, numbers, an optional note, a date; an index on `name`.
/// - v2: adds `label` with a default: Strata alters the table in place (`ADD COLUMN`).
/// - v3: `note` becomes required (NULLs filled with its default): SQLite cannot add NOT NULL to a
///   column, so Strata rebuilds the table, and so does anyone writing it by hand.
enum MigrationBenchModel {
    /// The model's name.
    static let name = "MigrationBench"

    /// The version files: (`v1.yaml`, text), …
    static let versions: [(name: String, text: String)] = [
        ("v1.yaml", version(1, note: "note: String?", label: false)),
        ("v2.yaml", version(2, note: "note: String?", label: true)),
        ("v3.yaml", version(3, note: "note: { type: String, default: \"\" }", label: true)),
    ]

    private static func version(_ number: Int, note: String, label: Bool) -> String {
        """
        model: MigrationBench
        version: \(number)

        entities:
          Event:
            fields:
              id: Int64
              name: String
              count: Int32
              score: Double
              \(note)
              createdAt: Date\(label ? "\n      label: { type: String, default: \"\" }" : "")
            indexes:
              - [name]

        """
    }

    /// The rows of the seed: `INSERT` with the values of row `index` bound by `MigrationBenchmark`.
    static let insertSQL = """
        INSERT INTO "event" ("id", "name", "count", "score", "note", "created_at") VALUES (?, ?, ?, ?, ?, ?)
        """

    /// v1 -> v2 by hand: the column, as anyone would add it.
    static let handAddColumn = """
        ALTER TABLE event ADD COLUMN label TEXT NOT NULL DEFAULT '';
        """

    /// v2 -> v3 by hand: the rebuild that sqlite.org documents ("Making Other Kinds Of Table Schema
    /// Changes"), steps 4-9; the runner does the rest (foreign keys off, transaction,
    /// `PRAGMA foreign_key_check`, commit, foreign keys on).
    static let handRebuild = """
        CREATE TABLE new_event (
            id INTEGER NOT NULL PRIMARY KEY,
            name TEXT NOT NULL,
            count INTEGER NOT NULL,
            score REAL NOT NULL,
            note TEXT NOT NULL DEFAULT '',
            created_at REAL NOT NULL,
            label TEXT NOT NULL DEFAULT ''
        );
        INSERT INTO new_event (id, name, count, score, note, created_at, label)
            SELECT id, name, count, score, coalesce(note, ''), created_at, label FROM event;
        DROP TABLE event;
        ALTER TABLE new_event RENAME TO event;
        CREATE INDEX event_name_idx ON event (name);
        """
}

/// The TODO app's history by hand: v1 -> v2 -> v3 as two migrations of hand-written `ALTER`s that
/// give the same schema as Strata's (the same CHECK constraints, the same index).
enum MyTODOByHand {
    /// v1 -> v2.
    static let v2 = """
        ALTER TABLE todo_item ADD COLUMN is_done INTEGER NOT NULL DEFAULT 0 CHECK (is_done IN (0, 1));
        """
    /// v2 -> v3.
    static let v3 = """
        ALTER TABLE todo_item ADD COLUMN priority INTEGER NOT NULL DEFAULT 2 CHECK (priority IN (0, 1, 2, 3, 4));
        CREATE INDEX todo_item_priority_title_idx ON todo_item (priority, title);
        """
    /// The same without the CHECK constraints (SQLite then adds each column without reading the table).
    static let withoutChecks = [
        "ALTER TABLE todo_item ADD COLUMN is_done INTEGER NOT NULL DEFAULT 0;",
        """
        ALTER TABLE todo_item ADD COLUMN priority INTEGER NOT NULL DEFAULT 2;
        CREATE INDEX todo_item_priority_title_idx ON todo_item (priority, title);
        """,
    ]

    /// The seed rows of v1.
    static let insertSQL = """
        INSERT INTO "todo_item" ("id", "title", "detail") VALUES (?, ?, ?)
        """
}
