/// An index over one or more fields.
public struct Index: Hashable, Sendable {
    /// The index name: the given `name`, or derived from the table and columns.
    public var name: String
    /// True when `name` was written in the schema.
    public var hasExplicitName: Bool
    /// The fields, in index order.
    public var fields: [String]
    /// True for a unique index.
    public var isUnique: Bool
    /// Where the index is declared.
    public var location: SourceLocation
    /// True when PostgreSQL builds the index `CONCURRENTLY` when a later version adds it to an
    /// existing table: outside and before that version's transaction (`concurrently: true`).
    public var isConcurrent: Bool = false

    /// The name of an index without a `name`: `<table>_<columns>_idx`, or `_key` for a unique one.
    public static func defaultName(table: String, columns: [String], isUnique: Bool) -> String {
        var name = table
        for column in columns {
            name += "_"
            name += column
        }
        name += isUnique ? "_key" : "_idx"
        return name
    }
}

/// The to-many side of a reference: accessors only, no column.
public struct HasMany: Hashable, Sendable {
    /// The accessor name.
    public var name: String
    /// The entity holding the reference.
    public var entity: String
    /// The field of `entity` that references this entity.
    public var via: String
    /// Where it is declared.
    public var location: SourceLocation
    /// Where `entity` is written.
    public var entityLocation: SourceLocation
    /// Where `via` is written.
    public var viaLocation: SourceLocation
}

/// An entity: one Swift struct and one table.
public struct Entity: Hashable, Sendable {
    /// The entity name (a Swift type name).
    public var name: String
    /// The table name, after `naming` and `table:`.
    public var table: String
    /// The fields in declaration order (= column order = property order).
    public var fields: [Field]
    /// The primary key fields, in key order.
    public var primaryKey: [String]
    /// Indexes, in declaration order (single-field `unique` constraints are not here).
    public var indexes: [Index]
    /// To-many accessors.
    public var hasMany: [HasMany]
    /// The entity's name in the previous version, when it was renamed.
    public var renamedFrom: String?
    /// Documentation.
    public var doc: String?
    /// Where the entity is declared.
    public var location: SourceLocation

    /// The field with this name.
    public func field(named name: String) -> Field? {
        // By index: `first(where:)` would copy every field it passes over.
        fields.firstIndex { $0.name == name }.map { fields[$0] }
    }

    /// The primary key fields, in key order.
    public var primaryKeyFields: [Field] {
        primaryKey.compactMap { field(named: $0) }
    }

    /// The single primary key field, when the key has exactly one field.
    public var singlePrimaryKey: Field? {
        primaryKey.count == 1 ? field(named: primaryKey[0]) : nil
    }

    /// The autoincremented field, if any.
    public var autoincrementField: Field? {
        fields.first { $0.isAutoincrement }
    }
}
