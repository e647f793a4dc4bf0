import Yams

/// Reads YAML nodes into typed values, recording a diagnostic (with the node's location)
/// for every value of the wrong kind instead of stopping at the first.
struct NodeReader {
    /// The file being read, as given.
    let file: String
    /// Problems found so far.
    var diagnostics = DiagnosticBag()

    /// One `key: value` pair of a mapping.
    struct Entry {
        var key: String
        var keyLocation: SourceLocation
        var value: Node
    }

    func location(_ node: Node) -> SourceLocation {
        guard let mark = node.mark else { return .file(file) }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    mutating func error(_ message: String, at node: Node) {
        diagnostics.error(message, at: location(node))
    }

    /// A short name for the kind of a node, for "expected X, found Y" messages.
    static func kind(of node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar:
            switch node.tagName {
            case .null: return "null"
            case .bool: return "a boolean"
            case .int: return "an integer"
            case .float: return "a number"
            default: return "a string"
            }
        }
    }

    /// The entries of a mapping, in order, with string keys; an error for anything else.
    mutating func mapping(_ node: Node, _ what: String) -> [Entry]? {
        guard case .mapping(let mapping) = node else {
            error("\(what) must be a mapping, found \(Self.kind(of: node))", at: node)
            return nil
        }
        var entries: [Entry] = []
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else {
                error("keys of \(what) must be names, found \(Self.kind(of: key))", at: key)
                continue
            }
            guard scalar.string.count <= Limits.nameLength else {
                error(
                    "the name '\(Limits.shown(scalar.string))' in \(what) is longer than \(Limits.nameLength) characters",
                    at: key)
                continue
            }
            entries.append(Entry(key: scalar.string, keyLocation: location(key), value: value))
        }
        return entries
    }

    /// Reports every key that is not one of `allowed`, suggesting the nearest allowed key.
    mutating func checkKeys(_ entries: [Entry], allowed: [String], in what: String) {
        for entry in entries where !allowed.contains(entry.key) {
            diagnostics.error(
                "unknown key '\(entry.key)' in \(what)\(Suggestion.didYouMean(entry.key, in: allowed))",
                at: entry.keyLocation)
        }
    }

    /// The items of a list; an error for anything else.
    mutating func sequence(_ node: Node, _ what: String) -> [Node]? {
        guard case .sequence(let sequence) = node else {
            error("\(what) must be a list, found \(Self.kind(of: node))", at: node)
            return nil
        }
        return Array(sequence)
    }

    /// A string scalar (plain or quoted); numbers, booleans and null are errors.
    mutating func string(_ node: Node, _ what: String) -> String? {
        guard case .scalar(let scalar) = node, node.tagName == .str else {
            error("\(what) must be a string, found \(Self.kind(of: node))", at: node)
            return nil
        }
        return scalar.string
    }

    /// A non-empty string scalar.
    mutating func nonEmptyString(_ node: Node, _ what: String) -> String? {
        guard let value = string(node, what) else { return nil }
        guard !value.isEmpty else {
            error("\(what) must not be empty", at: node)
            return nil
        }
        return value
    }

    /// A boolean scalar.
    mutating func bool(_ node: Node, _ what: String) -> Bool? {
        guard node.tagName == .bool, let value = node.bool else {
            error("\(what) must be true or false, found \(Self.kind(of: node))", at: node)
            return nil
        }
        return value
    }

    /// An integer scalar.
    mutating func integer(_ node: Node, _ what: String) -> Int? {
        guard node.tagName == .int, let value = node.int else {
            error("\(what) must be an integer, found \(Self.kind(of: node))", at: node)
            return nil
        }
        return value
    }

    /// A list of strings, or a single string as a one-item list.
    mutating func stringList(_ node: Node, _ what: String) -> [(String, SourceLocation)]? {
        if case .scalar = node {
            return string(node, what).map { [($0, location(node))] }
        }
        guard let items = sequence(node, what) else { return nil }
        var result: [(String, SourceLocation)] = []
        for item in items {
            if let value = string(item, "each item of \(what)") { result.append((value, location(item))) }
        }
        return result
    }

    /// SQL given as a string (all dialects) or as `{ sql: …, sqlite: …, postgres: … }`.
    mutating func dialectSQL(_ node: Node, _ what: String) -> DialectSQL? {
        let where_ = location(node)
        if case .scalar = node {
            guard let sql = nonEmptyString(node, what) else { return nil }
            return DialectSQL(sqlite: sql, postgres: sql, location: where_)
        }
        guard let entries = mapping(node, what) else { return nil }
        checkKeys(entries, allowed: SchemaKeys.dialectSQL, in: what)
        var result = DialectSQL(sqlite: nil, postgres: nil, location: where_)
        for entry in entries {
            switch entry.key {
            case "sql":
                let sql = nonEmptyString(entry.value, "\(what).sql")
                result.sqlite = result.sqlite ?? sql
                result.postgres = result.postgres ?? sql
            case "sqlite": result.sqlite = nonEmptyString(entry.value, "\(what).sqlite")
            case "postgres": result.postgres = nonEmptyString(entry.value, "\(what).postgres")
            default: break
            }
        }
        if result.sqlite == nil && result.postgres == nil {
            error("\(what) needs 'sql', or 'sqlite' and 'postgres'", at: node)
            return nil
        }
        return result
    }
}

extension Node {
    /// The resolved tag (`str`, `int`, `bool`, …): plain scalars by YAML 1.1's rules (Yams' default
    /// resolver), quoted ones as `str`.
    ///
    /// Documents are composed with Yams' basic resolver (`YAMLDocument.parse`), which leaves value
    /// scalars unresolved: they are resolved here, once each, when the parser asks. A plain scalar
    /// that starts with a letter is a string unless it is one of YAML 1.1's boolean or null words
    /// (every other rule needs a digit, sign, dot, `~`, `<<` or `=` first), which spares most
    /// scalars the default resolver's regular expressions.
    var tagName: Tag.Name {
        guard case .scalar(let scalar) = self else { return Tag.Name(rawValue: tag.rawValue) }
        switch scalar.tag.rawValue {
        case Tag.Name.implicit.rawValue:
            if let first = scalar.string.utf8.first,
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20),
                !Self.reservedWords.contains(scalar.string)
            {
                return .str
            }
            return Resolver.default.resolveTag(of: self)
        case Tag.Name.nonSpecific.rawValue:
            return .str
        case let explicit:
            return Tag.Name(rawValue: explicit)
        }
    }

    /// The plain scalars starting with a letter that Yams' default resolver does not read as strings.
    private static let reservedWords: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
    ]
}
