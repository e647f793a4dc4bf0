/// An enum of the schema: a closed set of named cases with raw values.
public struct EnumDecl: Hashable, Sendable {
    /// One case and its raw value.
    public struct Case: Hashable, Sendable {
        /// The case name (a Swift identifier).
        public var name: String
        /// `.integer` for integer raw types, `.string` for `String`.
        public var rawValue: Literal
        /// Where the case is declared.
        public var location: SourceLocation
    }

    /// The enum's name (a Swift type name).
    public var name: String
    /// The raw type the cases are stored as.
    public var rawType: EnumRawType
    /// The cases in declaration order.
    public var cases: [Case]
    /// The case that raw values matching no case decode to, if any.
    public var unknownCase: String?
    /// Documentation.
    public var doc: String?
    /// Where the enum is declared.
    public var location: SourceLocation

    /// The case with this name.
    public func `case`(named name: String) -> Case? {
        cases.first { $0.name == name }
    }
}
