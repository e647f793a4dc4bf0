/// An item of `migration.allowDataLoss` (names of version N-1) or `migration.allowLocks` (names
/// of version N): an entity or an enum, or a field (a case) of one.
public struct DataLossAllowance: Hashable, Sendable {
    /// The entity name (in the previous version).
    public var entity: String
    /// The field name (in the previous version), or nil for the whole entity.
    public var field: String?
    /// Where it is written.
    public var location: SourceLocation

    /// `Entity` or `Entity.field`.
    public var spelled: String { field.map { "\(entity).\($0)" } ?? entity }
}

/// The `migration` block of a version.
public struct MigrationHints: Hashable, Sendable {
    /// Destructive steps the author acknowledges.
    public var allowDataLoss: [DataLossAllowance] = []
    /// Steps that hold ACCESS EXCLUSIVE on an existing PostgreSQL table while they read or write
    /// its rows, which the author acknowledges (`Entity`, `Entity.field` or `Enum`, names of N).
    public var allowLocks: [DataLossAllowance] = []
    /// True when the version is applied to PostgreSQL as expand then contract
    /// (`migration.rolling: true`), so that code of version N-1 keeps running beside code of N
    /// until the contract (see ``RollingExpand``).
    public var rolling = false
    /// Where `rolling` is written.
    public var rollingLocation: SourceLocation?
    /// Custom SQL run before the derived steps.
    public var before: DialectSQL?
    /// Custom SQL run after the derived steps.
    public var after: DialectSQL?
    /// Where the block is written.
    public var location: SourceLocation?

    /// True when `entity` (or its field `field`) may be dropped.
    public func allows(entity: String, field: String? = nil) -> DataLossAllowance? {
        allowDataLoss.first { $0.entity == entity && ($0.field == nil || $0.field == field) }
    }

    /// The `allowLocks` item that acknowledges a lock on `entity` (or its field `field`), if any.
    public func allowsLock(entity: String, field: String? = nil) -> DataLossAllowance? {
        allowLocks.first { $0.entity == entity && ($0.field == nil || $0.field == field) }
    }
}

/// One validated version of a model: the complete snapshot in `vN.yaml`.
public struct Schema: Hashable, Sendable {
    /// The model name (the folder under `Schemas/`).
    public var model: String
    /// The version number.
    public var version: Int
    /// Table and column naming.
    public var naming: Naming
    /// Enums in declaration order.
    public var enums: [EnumDecl]
    /// Value types (`types:`) in declaration order.
    public var valueTypes: [ValueTypeDecl] = []
    /// True when every entity's key is a type of its own in generated Swift (`typedKeys: true`):
    /// see ``withTypedKeys()``.
    public var typedKeys = false
    /// Where `typedKeys` is written.
    var typedKeysLocation: SourceLocation?
    /// Entities in declaration order.
    public var entities: [Entity] {
        didSet { entityPositions = Self.positions(of: entities) }
    }
    /// The migration hints into this version.
    public var migration: MigrationHints
    /// The file path the version was read from, as given.
    public var file: String
    /// The file name (`v3.yaml`), used in generated headers.
    public var fileName: String
    /// Where `model:` and `version:` are written (for diagnostics about the file as a whole).
    var modelLocation: SourceLocation?
    var versionLocation: SourceLocation?
    /// The position of the first entity of each name in `entities`, kept with it: lookups by
    /// name are the generator's most frequent question, and a scan each time is quadratic on
    /// large models.
    var entityPositions: [String: Int] = [:]

    /// The entity with this name.
    public func entity(named name: String) -> Entity? {
        entityIndex(named: name).map { entities[$0] }
    }

    /// True when an entity has this name (without copying it out, as ``entity(named:)`` does).
    func hasEntity(named name: String) -> Bool {
        entityIndex(named: name) != nil
    }

    /// The position in `entities` of the entity ``entity(named:)`` returns, for reading it in
    /// place.
    func entityIndex(named name: String) -> Int? {
        if let position = entityPositions[name], position < entities.count, entities[position].name == name {
            return position
        }
        // Not indexed (a schema made with `entities` in its initializer) or no such entity.
        return entities.firstIndex { $0.name == name }
    }

    private static func positions(of entities: [Entity]) -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(entities.count)
        for (position, entity) in entities.enumerated() where positions[entity.name] == nil {
            positions[entity.name] = position
        }
        return positions
    }

    /// The enum with this name.
    public func enumDecl(named name: String) -> EnumDecl? {
        // By index: `first(where:)` would copy every declaration it passes over.
        enums.firstIndex { $0.name == name }.map { enums[$0] }
    }

    /// The value type with this name.
    public func valueType(named name: String) -> ValueTypeDecl? {
        valueTypes.firstIndex { $0.name == name }.map { valueTypes[$0] }
    }

    /// The scalar type a field is stored as: its own, an enum's raw type, a value type's storage,
    /// or the referenced primary key's.
    public func storageType(of field: Field) -> ScalarType? {
        switch field.type {
        case .scalar(let scalar): return scalar
        case .enumeration(let name): return enumDecl(named: name)?.rawType.scalar
        case .value(let name): return valueType(named: name)?.storage
        case .reference(let name):
            guard let target = entity(named: name)?.singlePrimaryKey, target.referencedEntity == nil else { return nil }
            return storageType(of: target)
        case .array: return nil
        }
    }

    /// How a field's column stores its values, to compare two versions of it: its storage type
    /// (``storageType(of:)``), or for an array the storage of its elements, marked as an array.
    /// Nil when the type cannot be resolved.
    public func storedShape(of field: Field) -> StoredShape? {
        if let element = arrayElementStorage(of: field) { return StoredShape(scalar: element, isArray: true) }
        return storageType(of: field).map { StoredShape(scalar: $0, isArray: false) }
    }

    /// The scalar type the elements of an array field are stored as (an enum's raw type, a value
    /// type's storage); nil for other fields.
    public func arrayElementStorage(of field: Field) -> ScalarType? {
        guard let element = field.type.arrayElement else { return nil }
        switch element {
        case .scalar(let scalar): return scalar
        case .enumeration(let name): return enumDecl(named: name)?.rawType.scalar
        case .value(let name): return valueType(named: name)?.storage
        case .reference, .array: return nil
        }
    }
}

/// How a column stores a field's values: a scalar type, or an array of one.
public struct StoredShape: Hashable, Sendable {
    /// The scalar type (of the elements, for an array).
    public var scalar: ScalarType
    /// True for an array field's column.
    public var isArray: Bool
}

/// Every version of one model, oldest first.
public struct SchemaHistory: Hashable, Sendable {
    /// The model name.
    public var model: String
    /// The versions, `versions[i].version == i + 1`.
    public var versions: [Schema]
    /// The paths of the model's query files (`queries/*.sql`), sorted.
    public var queryFiles: [String] = []
    /// The named queries of those files, checked against the latest version, in file order.
    public var queries: [AnalyzedQuery] = []
    /// The text of the model folder's `coredata-mapping.json` (a model imported from Core Data),
    /// whose Swift gets `importCoreDataStore`; nil for other models.
    public var coreDataMapping: String? = nil

    /// The newest version.
    public var latest: Schema? { versions.last }

    /// The version numbered `number`.
    public func version(_ number: Int) -> Schema? {
        (1...max(1, versions.count)).contains(number) ? versions[number - 1] : nil
    }
}
