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
    /// The condition of a partial index (`where:`): only rows where it holds are indexed.
    public var condition: DialectSQL?

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

/// A check constraint of a table over its columns (`checks: { name: condition }`).
public struct TableCheck: Hashable, Sendable {
    /// The constraint's name.
    public var name: String
    /// The condition, SQL over the table's columns, per dialect.
    public var condition: DialectSQL
    /// Where it is declared.
    public var location: SourceLocation
}

/// The to-many side of a reference: accessors only, no column.
public struct HasMany: Hashable, Sendable {
    /// The accessor name.
    public var name: String
    /// The entity holding the reference.
    public var entity: String
    /// The field of `entity` (or of the `through` entity) that references this entity; empty
    /// when a `through` entity has one such field, found by the validator.
    public var via: String
    /// Where it is declared.
    public var location: SourceLocation
    /// Where `entity` is written.
    public var entityLocation: SourceLocation
    /// Where `via` is written.
    public var viaLocation: SourceLocation
    /// The join entity of a many-to-many relation: its rows link this entity's records (through
    /// `via`) to `entity`'s (through its one reference to `entity`). Nil for a one-to-many.
    public var through: String? = nil
    /// Where `through` is written.
    public var throughLocation: SourceLocation? = nil
}

/// An entity: one Swift struct and one table.
///
/// Its properties live in one shared box, copied on the first change to a shared copy: the
/// generator passes entities around by the thousand (diffs, migrations, every renderer), and a
/// copy is then one reference rather than one per array and string inside.
public struct Entity: Hashable, Sendable {
    /// The entity name (a Swift type name).
    public var name: String {
        get { box.values.name }
        _modify { makeUnique(); yield &box.values.name }
    }
    /// The table name, after `naming` and `table:`.
    public var table: String {
        get { box.values.table }
        _modify { makeUnique(); yield &box.values.table }
    }
    /// The fields in declaration order (= column order = property order).
    public var fields: [Field] {
        get { box.values.fields }
        _modify { makeUnique(); yield &box.values.fields }
    }
    /// The primary key fields, in key order.
    public var primaryKey: [String] {
        get { box.values.primaryKey }
        _modify { makeUnique(); yield &box.values.primaryKey }
    }
    /// Indexes, in declaration order (single-field `unique` constraints are not here).
    public var indexes: [Index] {
        get { box.values.indexes }
        _modify { makeUnique(); yield &box.values.indexes }
    }
    /// To-many accessors.
    public var hasMany: [HasMany] {
        get { box.values.hasMany }
        _modify { makeUnique(); yield &box.values.hasMany }
    }
    /// The entity's name in the previous version, when it was renamed.
    public var renamedFrom: String? {
        get { box.values.renamedFrom }
        _modify { makeUnique(); yield &box.values.renamedFrom }
    }
    /// Documentation.
    public var doc: String? {
        get { box.values.doc }
        _modify { makeUnique(); yield &box.values.doc }
    }
    /// Check constraints over the table's columns, in declaration order.
    public var checks: [TableCheck] {
        get { box.values.checks }
        _modify { makeUnique(); yield &box.values.checks }
    }
    /// Full-text search over text fields (`search:`), if declared.
    public var search: FullTextSearch? {
        get { box.values.search }
        _modify { makeUnique(); yield &box.values.search }
    }
    /// Where the entity is declared.
    public var location: SourceLocation {
        get { box.values.location }
        _modify { makeUnique(); yield &box.values.location }
    }

    /// The shared properties.
    private var box: Box

    /// Creates an entity.
    init(
        name: String, table: String, fields: [Field], primaryKey: [String], indexes: [Index], hasMany: [HasMany],
        renamedFrom: String?, doc: String?, location: SourceLocation
    ) {
        box = Box(
            Values(
                name: name, table: table, fields: fields, primaryKey: primaryKey, indexes: indexes, hasMany: hasMany,
                renamedFrom: renamedFrom, doc: doc, location: location))
    }

    /// Gives this copy a box of its own before a change, unless it is the box's only owner.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.values) }
    }

    public static func == (lhs: Entity, rhs: Entity) -> Bool {
        lhs.box === rhs.box || lhs.box.values == rhs.box.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(box.values)
    }

    /// The properties.
    private struct Values: Hashable, Sendable {
        var name: String
        var table: String
        var fields: [Field]
        var primaryKey: [String]
        var indexes: [Index]
        var hasMany: [HasMany]
        var renamedFrom: String?
        var doc: String?
        var location: SourceLocation
        var checks: [TableCheck] = []
        var search: FullTextSearch?
    }

    /// The box: changed only through ``makeUnique()``, by a copy that owns it alone, so sharing
    /// it between threads is safe.
    private final class Box: @unchecked Sendable {
        // Read on every property access: without the runtime's exclusivity checks, which cost
        // more than the reads (only a copy that owns the box alone writes it).
        @exclusivity(unchecked) var values: Values

        init(_ values: Values) { self.values = values }
    }

    /// The field with this name.
    public func field(named name: String) -> Field? {
        // By index: `first(where:)` would copy every field it passes over.
        let fields = box.values.fields
        return fields.firstIndex { $0.name == name }.map { fields[$0] }
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

extension Schema {
    /// The fields of a many-to-many's `through` entity that reference `entity` (`from`) and the
    /// relation's target (`to`): `via` when given, else the join entity's one reference to
    /// `entity`; for the target, its one other reference to the target. Nil when the relation is
    /// not a many-to-many or they are not found (the validator says why).
    func link(of relation: HasMany, from entity: Entity) -> (join: Entity, from: Field, to: Field)? {
        guard let name = relation.through, let join = self.entity(named: name) else { return nil }
        let references = { (target: String) in join.fields.filter { $0.referencedEntity == target } }
        let from = relation.via.isEmpty ? references(entity.name).first : join.field(named: relation.via)
        guard let from, relation.via.isEmpty ? references(entity.name).count == 1 : true else { return nil }
        let targets = references(relation.entity).filter { $0.name != from.name }
        guard targets.count == 1, let to = targets.first else { return nil }
        return (join, from, to)
    }
}
