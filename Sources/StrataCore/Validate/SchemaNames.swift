/// Whether a name can be given to an entity or a field: what the validator accepts, for tools
/// that make names up (the importers).
public enum SchemaNames {
    /// True when `name` is a valid entity or enum name that the generated Swift does not reserve.
    public static func isUsableTypeName(_ name: String) -> Bool {
        SchemaValidator.isSwiftIdentifier(name) && !SchemaValidator.reservedTypeNames.contains(name)
    }

    /// True when `name` is a valid field name that the generated Swift does not reserve.
    public static func isUsableMemberName(_ name: String) -> Bool {
        SchemaValidator.isSwiftIdentifier(name) && !SchemaValidator.reservedMemberNames.contains(name)
    }
}
