/// Why a Core Data store's rows could not be moved; nothing was written.
public enum CoreDataStoreImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is not a Core Data SQLite store (not SQLite, or without Core Data's tables).
    case notACoreDataStore(path: String, reason: String)
    /// The store's entities, tables and columns match no version of the model (a store of another
    /// model, or of a version the model lacks); `reason` names the closest versions and what differs.
    case unknownLayout(path: String, model: String, reason: String)
    /// The store's entities, tables, columns and indexes fit several versions alike: which one
    /// wrote it cannot be told.
    case ambiguousLayout(path: String, model: String, versions: [Int])
    /// A row of the store cannot be copied as it is (a `Z_ENT` that names no entity, a UUID that
    /// is not 16 bytes).
    case invalidRow(path: String, table: String, primaryKey: Int64, reason: String)
    /// The copy holds fewer rows than the store: an entity's row count, or a join table's pairs,
    /// differ after the copy; the import was rolled back.
    case incompleteCopy(path: String, reason: String)
    /// The mapping cannot be followed (a relationship whose join table layout is not known).
    case unsupported(String)
    /// The rows could not be written into the Strata database.
    case copyFailed(String)

    public var description: String {
        switch self {
        case .notACoreDataStore(let path, let reason): "'\(path)' is not a Core Data SQLite store: \(reason)"
        case .unknownLayout(let path, let model, let reason):
            "'\(path)' is not a store of model '\(model)' at any of its versions: \(reason)"
        case .ambiguousLayout(let path, let model, let versions):
            "'\(path)' fits versions \(versions.map { "v\($0)" }.joined(separator: ", ")) of model '\(model)' alike (the same entities, tables, columns and indexes): which one wrote it cannot be told, and nothing was imported; if you know it, name it with --store-version"
        case .invalidRow(let path, let table, let primaryKey, let reason):
            "'\(path)': row Z_PK \(primaryKey) of table \(table) \(reason); nothing was imported"
        case .incompleteCopy(let path, let reason):
            "'\(path)' was not imported: \(reason); the copy was rolled back and nothing was written"
        case .unsupported(let message): message
        case .copyFailed(let message): "the rows could not be copied: \(message)"
        }
    }
}
