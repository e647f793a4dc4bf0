/// Every key a version file may contain, by the mapping it appears in: the lists the parser
/// checks keys against (an unknown key is an error suggesting the nearest of them), public so
/// that the JSON Schema of `vN.yaml` (`Docs/JSONSchema/strata-version.schema.json`) is tested
/// against the very same lists.
public enum SchemaKeys {
    /// The top level of a version file.
    public static let topLevel = ["model", "version", "naming", "enums", "types", "entities", "migration"]
    /// A value type in its mapping form.
    public static let valueType = ["type", "json", "external", "doc"]
    /// A member of a JSON value type in its mapping form.
    public static let jsonMember = ["type", "default", "renamedFrom", "transform", "doc"]
    /// An enum.
    public static let enumeration = ["type", "cases", "unknown", "doc"]
    /// An entity.
    public static let entity = [
        "fields", "table", "primaryKey", "indexes", "hasMany", "checks", "search", "renamedFrom", "doc",
    ]
    /// A field in its mapping form.
    public static let field = [
        "type", "default", "primaryKey", "autoincrement", "unique", "column", "onDelete", "renamedFrom",
        "transform", "sqlType", "check", "format", "doc",
    ]
    /// An index in its mapping form.
    public static let index = ["fields", "unique", "name", "concurrently", "where"]
    /// An entity's `search` in its mapping form.
    public static let search = ["fields", "language"]
    /// One entry of an entity's `hasMany`.
    public static let hasMany = ["entity", "via", "through"]
    /// The `migration` block.
    public static let migration = ["allowDataLoss", "allowLocks", "rolling", "before", "after"]
    /// SQL given per dialect (`transform`, `before`, `after`).
    public static let dialectSQL = ["sql", "sqlite", "postgres"]
}
