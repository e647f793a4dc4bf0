/// A value type of the schema (`types:`): a Swift type of its own, stored as a built-in scalar
/// (`Cents` stored as `Int64`), used like a scalar in fields, keys, references, filters and sorts.
public struct ValueTypeDecl: Hashable, Sendable {
    /// The type's name (a Swift type name).
    public var name: String
    /// The built-in type its values are stored as (its `rawValue`'s type).
    public var storage: ScalarType
    /// True when the app's code declares the type (a `RawRepresentable` whose `RawValue` is the
    /// storage type); else the generator declares it.
    public var isExternal: Bool
    /// Documentation.
    public var doc: String?
    /// Where the type is declared.
    public var location: SourceLocation
    /// For a JSON value type (`Settings: { json: { theme: String, … } }`, stored as ``ScalarType/json``):
    /// its members, in order; nil for a value type stored as a scalar.
    public var members: [JSONMember]? = nil

    /// True for a JSON value type: a struct of members stored as one JSON object.
    public var isJSON: Bool { members != nil }

    /// The member with this name.
    public func member(named name: String) -> JSONMember? {
        members?.first { $0.name == name }
    }
}

/// A member of a JSON value type: a property of the Swift struct and a key of the stored JSON
/// object (the same name).
public struct JSONMember: Hashable, Sendable {
    /// The name: the Swift property and the JSON key.
    public var name: String
    /// The type of the member, or of each element of an array: a built-in type, an enum or a
    /// value type (another JSON value type nests an object).
    public var type: FieldType
    /// True for an array of `type` (`[String]`).
    public var isArray = false
    /// True when the member may be nil (`String?`): left out of the stored object.
    public var isOptional = false
    /// What a stored object without the member reads as, and what a migration adding the member
    /// fills in.
    public var defaultValue: Literal?
    /// The member's name in the previous version, when renamed.
    public var renamedFrom: String?
    /// SQL computing the member's value during the migration into this version.
    public var transform: DialectSQL?
    /// Documentation.
    public var doc: String?
    /// Where the member is declared.
    public var location: SourceLocation
    /// Where its type is written.
    public var typeLocation: SourceLocation

    /// The member as a field of its type, optionality and default: what the checks and
    /// renderings of a field's default apply to.
    public var asField: Field {
        Field(
            name: name, column: name, type: type, isOptional: isOptional, defaultValue: defaultValue,
            isAutoincrement: false, isUnique: false, onDelete: .noAction, renamedFrom: nil, transform: nil, doc: nil,
            location: location, typeLocation: typeLocation, defaultLocation: nil)
    }

    /// The type as written: `[String]?`.
    public var spelled: String {
        let base = isArray ? "[\(type)]" : type.description
        return isOptional ? base + "?" : base
    }
}


extension Schema {
    /// True when a member of a JSON value type holds the enum or value type `name` (so that it
    /// is read from and written as JSON too).
    func isHeldInJSON(_ name: String) -> Bool {
        valueTypes.contains { decl in
            decl.members?.contains { $0.type == .enumeration(name) || $0.type == .value(name) } ?? false
        }
    }
}
