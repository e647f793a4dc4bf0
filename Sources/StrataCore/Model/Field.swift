/// What happens to referencing rows when a referenced row is deleted.
public enum OnDelete: String, CaseIterable, Sendable, Hashable {
    case cascade
    case setNull
    case restrict
    case noAction
}

/// A per-dialect SQL fragment (a `transform`, or custom migration SQL).
public struct DialectSQL: Hashable, Sendable {
    /// The SQL for SQLite, if given.
    public var sqlite: String?
    /// The SQL for PostgreSQL, if given.
    public var postgres: String?
    /// Where it is written.
    public var location: SourceLocation

    /// Creates a fragment.
    public init(sqlite: String?, postgres: String?, location: SourceLocation) {
        self.sqlite = sqlite
        self.postgres = postgres
        self.location = location
    }
}

/// A field of an entity: one Swift property and one column.
public struct Field: Hashable, Sendable {
    /// The field name (a Swift identifier).
    public var name: String
    /// The column name, after `naming` and `column:`.
    public var column: String
    /// The declared type.
    public var type: FieldType
    /// True when the field is optional (`T?`, NULL allowed).
    public var isOptional: Bool
    /// The literal default, if any.
    public var defaultValue: Literal?
    /// True when the database assigns the value (integer primary keys only).
    public var isAutoincrement: Bool
    /// True for a single-column unique constraint.
    public var isUnique: Bool
    /// For references: the action on delete of the referenced row.
    public var onDelete: OnDelete
    /// The field's name in the previous version, when it was renamed.
    public var renamedFrom: String?
    /// SQL computing the field while migrating into this version.
    public var transform: DialectSQL?
    /// Documentation.
    public var doc: String?
    /// Where the field is declared (its key).
    public var location: SourceLocation
    /// Where the `type` is written.
    public var typeLocation: SourceLocation
    /// Where the `default` is written.
    public var defaultLocation: SourceLocation?
    /// True when the field itself says `primaryKey: true` (resolved into `Entity.primaryKey`).
    var isPrimaryKeyMarker = false

    /// True when the field references another entity.
    public var referencedEntity: String? {
        if case .reference(let name) = type { return name }
        return nil
    }
}
