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
}
