/// Why a Core Data store's rows could not be moved; nothing was written.
public enum CoreDataStoreImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is not a Core Data SQLite store (not SQLite, or without Core Data's tables).
    case notACoreDataStore(path: String, reason: String)
    /// The store's tables and columns match no version of the model (a store of another model).
    case unknownLayout(path: String, model: String, reason: String)
    /// The mapping cannot be followed (a relationship whose join table layout is not known).
    case unsupported(String)
    /// The rows could not be written into the Strata database.
    case copyFailed(String)

    public var description: String {
        switch self {
        case .notACoreDataStore(let path, let reason): "'\(path)' is not a Core Data SQLite store: \(reason)"
        case .unknownLayout(let path, let model, let reason):
            "'\(path)' is not a store of model '\(model)' at any of its versions: \(reason)"
        case .unsupported(let message): message
        case .copyFailed(let message): "the rows could not be copied: \(message)"
        }
    }
}
