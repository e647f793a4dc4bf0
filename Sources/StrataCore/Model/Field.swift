import StrataStorage

/// What happens to referencing rows when a referenced row is deleted.
public enum OnDelete: String, CaseIterable, Sendable, Hashable {
    case cascade
    case setNull
    case restrict
    case noAction
}

/// A per-dialect SQL fragment (a `transform`, custom migration SQL, a declared column type or a
/// default expression).
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

/// A Date field's `format:` and where it is written.
struct FieldDateText: Hashable, Sendable {
    var format: SQLiteDateText
    var location: SourceLocation
}

/// A field of an entity: one Swift property and one column.
///
/// What most fields have is stored inline; what few have (a default, a rename, a transform,
/// documentation) is kept out of line in one shared box, so that a model of tens of thousands of
/// fields (the largest allowed input) takes about half the memory. The properties read and write
/// the same either way.
public struct Field: Hashable, Sendable {
    /// The field name (a Swift identifier).
    public var name: String
    /// The column name, after `naming` and `column:`.
    public var column: String
    /// The declared type.
    public var type: FieldType
    /// True when the field is optional (`T?`, NULL allowed).
    public var isOptional: Bool
    /// True when the database assigns the value (integer primary keys only).
    public var isAutoincrement: Bool
    /// True for a single-column unique constraint.
    public var isUnique: Bool
    /// For references: the action on delete of the referenced row.
    public var onDelete: OnDelete
    /// True when the field itself says `primaryKey: true` (resolved into `Entity.primaryKey`).
    var isPrimaryKeyMarker = false
    /// Where the field is declared (its key).
    public var location: SourceLocation
    /// Where the `type` is written.
    public var typeLocation: SourceLocation
    /// The rarely set properties; nil when none is.
    private var extras: Extras?

    /// Creates a field.
    init(
        name: String, column: String, type: FieldType, isOptional: Bool, defaultValue: Literal?,
        isAutoincrement: Bool, isUnique: Bool, onDelete: OnDelete, renamedFrom: String?, transform: DialectSQL?,
        doc: String?, location: SourceLocation, typeLocation: SourceLocation, defaultLocation: SourceLocation?
    ) {
        self.name = name
        self.column = column
        self.type = type
        self.isOptional = isOptional
        self.isAutoincrement = isAutoincrement
        self.isUnique = isUnique
        self.onDelete = onDelete
        self.location = location
        self.typeLocation = typeLocation
        setRareValues(
            defaultValue: defaultValue, renamedFrom: renamedFrom, transform: transform, doc: doc,
            defaultLocation: defaultLocation)
    }

    /// Sets every out-of-line property at once: one box, or none when they are all nil (the
    /// parser's way, rather than a new box per property).
    mutating func setRareValues(
        defaultValue: Literal?, renamedFrom: String?, transform: DialectSQL?, doc: String?,
        defaultLocation: SourceLocation?
    ) {
        if defaultValue == nil && renamedFrom == nil && transform == nil && doc == nil && defaultLocation == nil {
            extras = nil
            return
        }
        extras = Extras(
            Extras.Values(
                defaultValue: defaultValue, renamedFrom: renamedFrom, transform: transform.map(Extras.Transform.init),
                doc: doc, defaultLocation: defaultLocation))
    }

    /// The literal default, if any.
    public var defaultValue: Literal? {
        get { extras?.values.defaultValue }
        set { update { $0.defaultValue = newValue } }
    }
    /// The field's name in the previous version, when it was renamed.
    public var renamedFrom: String? {
        get { extras?.values.renamedFrom }
        set { update { $0.renamedFrom = newValue } }
    }
    /// SQL computing the field while migrating into this version.
    public var transform: DialectSQL? {
        get { extras?.values.transform?.sql }
        set { update { $0.transform = newValue.map(Extras.Transform.init) } }
    }
    /// Documentation.
    public var doc: String? {
        get { extras?.values.doc }
        set { update { $0.doc = newValue } }
    }
    /// Where the `default` is written.
    public var defaultLocation: SourceLocation? {
        get { extras?.values.defaultLocation }
        set { update { $0.defaultLocation = newValue } }
    }
    /// The column's declared type per dialect (`sqlType`), when it is not the one Strata derives
    /// from the field's type: what an existing table declares (`NVARCHAR(160)`, `NUMERIC(10,2)`).
    public var sqlType: DialectSQL? {
        get { extras?.values.sqlType }
        set { update { $0.sqlType = newValue } }
    }
    /// The column's default as a SQL expression per dialect (`default: { sql: CURRENT_TIMESTAMP }`),
    /// which the database evaluates; the Swift initializer has no default for it.
    public var sqlDefault: DialectSQL? {
        get { extras?.values.sqlDefault }
        set { update { $0.sqlDefault = newValue } }
    }
    /// A check on the column's values as a SQL condition per dialect (`check: "quantity > 0"`).
    public var check: DialectSQL? {
        get { extras?.values.check }
        set { update { $0.check = newValue } }
    }
    /// `format:` of a Date field: stored in SQLite as ISO 8601 text in this format rather than
    /// Strata's exact REAL (on PostgreSQL, `date` makes the column a `DATE`).
    public var dateText: SQLiteDateText? {
        get { extras?.values.dateText?.format }
        set {
            let at = dateTextLocation ?? location
            update { $0.dateText = newValue.map { FieldDateText(format: $0, location: at) } }
        }
    }
    /// Where `format:` is written.
    public var dateTextLocation: SourceLocation? { extras?.values.dateText?.location }
    /// Sets `format:` with where it is written.
    mutating func setDateText(_ format: SQLiteDateText, at location: SourceLocation) {
        update { $0.dateText = FieldDateText(format: format, location: location) }
    }
    /// `autoincrement: rowid`: a key the database assigns as SQLite assigns a rowid, the
    /// largest so far plus one (`INTEGER PRIMARY KEY` without `AUTOINCREMENT`, whose keys of
    /// deleted last rows may come again); elsewhere as `autoincrement: true`.
    public var isRowidKey: Bool {
        get { extras?.values.isRowidKey ?? false }
        set { update { $0.isRowidKey = newValue } }
    }

    /// Changes the out-of-line properties (a new box: boxes are never mutated, so copies of the
    /// field keep their values).
    private mutating func update(_ change: (inout Extras.Values) -> Void) {
        var values = extras?.values ?? Extras.Values()
        change(&values)
        extras = values == Extras.Values() ? nil : Extras(values)
    }

    /// The box of the rarely set properties.
    private final class Extras: Hashable, Sendable {
        struct Values: Hashable, Sendable {
            var defaultValue: Literal?
            var renamedFrom: String?
            /// Rarer still, and large: boxed again.
            var transform: Transform?
            var doc: String?
            var defaultLocation: SourceLocation?
            var sqlType: DialectSQL?
            var sqlDefault: DialectSQL?
            var check: DialectSQL?
            var isRowidKey = false
            var dateText: FieldDateText?
        }

        final class Transform: Hashable, Sendable {
            let sql: DialectSQL

            init(_ sql: DialectSQL) { self.sql = sql }

            static func == (lhs: Transform, rhs: Transform) -> Bool { lhs.sql == rhs.sql }
            func hash(into hasher: inout Hasher) { hasher.combine(sql) }
        }

        let values: Values

        init(_ values: Values) { self.values = values }

        static func == (lhs: Extras, rhs: Extras) -> Bool { lhs === rhs || lhs.values == rhs.values }
        func hash(into hasher: inout Hasher) { hasher.combine(values) }
    }

    /// True when the field references another entity.
    public var referencedEntity: String? {
        if case .reference(let name) = type { return name }
        return nil
    }
}
