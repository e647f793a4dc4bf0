import StrataStorage

/// One change a migration makes inside the stored JSON objects of a JSON value type whose shape
/// changed (``JSONShapeDiff``), at a path of keys from the column's object. Each dialect writes it
/// as a JSON function over the column (`json_insert`, `jsonb_set`…); a row whose value is NULL
/// stays NULL.
public enum JSONEdit: Hashable, Sendable {
    /// A member added with a default: the default is set where the stored object lacks the member
    /// (an object the member's parent is missing from is left as it is).
    case fill(path: [String], json: String)
    /// A member removed (`allowDataLoss`): its key and value are dropped.
    case remove(path: [String])
    /// A member renamed (`renamedFrom`): its value moves to the new key.
    case rename(from: [String], to: [String])
    /// A member computed by its `transform` (SQL over the previous version's columns).
    case compute(path: [String], DialectSQL)

    /// The edit in words, for `strata plan`: `add language (filled with "en")`.
    public var summary: String {
        func spelled(_ path: [String]) -> String { path.joined(separator: ".") }
        switch self {
        case .fill(let path, let json): return "add \(spelled(path)) (filled with \(json))"
        case .remove(let path): return "remove \(spelled(path))"
        case .rename(let from, let to): return "rename \(spelled(from)) to \(spelled(to))"
        case .compute(let path, _): return "compute \(spelled(path)) by its transform"
        }
    }

    /// True when running the edit twice on a row leaves what running it once does (all but a
    /// `transform`, which may read what it writes).
    public var isRepeatable: Bool {
        if case .compute = self { return false }
        return true
    }
}
