import Yams

/// Reads YAML nodes into typed values, recording a diagnostic (with the node's location)
/// for every value of the wrong kind instead of stopping at the first.
struct NodeReader {
    /// The file being read, as given.
    let file: String
    /// Its number in ``SourceFiles``, for the many locations made while reading it.
    private let fileNumber: SourceFiles.Number
    /// Problems found so far.
    var diagnostics = DiagnosticBag()

    init(file: String) {
        self.file = file
        fileNumber = SourceFiles.shared.number(of: file)
    }

    /// One `key: value` pair of a mapping.
    struct Entry {
        var key: String
        var keyLocation: SourceLocation
        var value: YAMLNode
    }

    func location(_ node: YAMLNode) -> SourceLocation {
        let mark = node.mark
        return SourceLocation(file: fileNumber, line: Int(mark.line), column: Int(mark.column))
    }

    mutating func error(_ message: String, at node: YAMLNode) {
        diagnostics.error(message, at: location(node))
    }

    /// A short name for the kind of a node, for "expected X, found Y" messages.
    static func kind(of node: YAMLNode) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
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
    mutating func mapping(_ node: YAMLNode, _ what: @autoclosure () -> String) -> [Entry]? {
        guard case .mapping(let mapping) = node else {
            error("\(what()) must be a mapping, found \(Self.kind(of: node))", at: node)
            return nil
        }
        var entries: [Entry] = []
        entries.reserveCapacity(mapping.count)
        // By index: copying each pair out would retain and release all it holds.
        for index in mapping.pairs.indices {
            guard case .scalar(let scalar) = mapping.pairs[index].key else {
                let key = mapping.pairs[index].key
                error("keys of \(what()) must be names, found \(Self.kind(of: key))", at: key)
                continue
            }
            // No more bytes than the limit: no more characters either (counting them is slow).
            guard scalar.string.utf8.count <= Limits.nameLength || scalar.string.count <= Limits.nameLength else {
                error(
                    "the name '\(Limits.shown(scalar.string))' in \(what()) is longer than \(Limits.nameLength) characters",
                    at: mapping.pairs[index].key)
                continue
            }
            let keyLocation = SourceLocation(
                file: fileNumber, line: Int(scalar.mark.line), column: Int(scalar.mark.column))
            entries.append(Entry(key: scalar.string, keyLocation: keyLocation, value: mapping.pairs[index].value))
        }
        return entries
    }

    /// Reports every key that is not one of `allowed`, suggesting the nearest allowed key.
    mutating func checkKeys(_ entries: [Entry], allowed: [String], in what: @autoclosure () -> String) {
        for entry in entries where !allowed.contains(entry.key) {
            diagnostics.error(
                "unknown key '\(entry.key)' in \(what())\(Suggestion.didYouMean(entry.key, in: allowed))",
                at: entry.keyLocation)
        }
    }

    /// The items of a list; an error for anything else.
    mutating func sequence(_ node: YAMLNode, _ what: @autoclosure () -> String) -> [YAMLNode]? {
        guard case .sequence(let list) = node else {
            error("\(what()) must be a list, found \(Self.kind(of: node))", at: node)
            return nil
        }
        return list.items
    }

    /// A string scalar (plain or quoted); numbers, booleans and null are errors.
    mutating func string(_ node: YAMLNode, _ what: @autoclosure () -> String) -> String? {
        guard case .scalar(let scalar) = node, node.tagName == .str else {
            error("\(what()) must be a string, found \(Self.kind(of: node))", at: node)
            return nil
        }
        return scalar.string
    }

    /// A non-empty string scalar.
    mutating func nonEmptyString(_ node: YAMLNode, _ what: @autoclosure () -> String) -> String? {
        guard let value = string(node, what()) else { return nil }
        guard !value.isEmpty else {
            error("\(what()) must not be empty", at: node)
            return nil
        }
        return value
    }

    /// A boolean scalar.
    mutating func bool(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Bool? {
        guard node.tagName == .bool, let value = node.bool else {
            error("\(what()) must be true or false, found \(Self.kind(of: node))", at: node)
            return nil
        }
        return value
    }

    /// An integer scalar.
    mutating func integer(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Int? {
        guard node.tagName == .int, let value = node.int else {
            error("\(what()) must be an integer, found \(Self.kind(of: node))", at: node)
            return nil
        }
        return value
    }

    /// A list of strings, or a single string as a one-item list.
    mutating func stringList(_ node: YAMLNode, _ what: @autoclosure () -> String) -> [(String, SourceLocation)]? {
        if case .scalar = node {
            return string(node, what()).map { [($0, location(node))] }
        }
        guard let items = sequence(node, what()) else { return nil }
        var result: [(String, SourceLocation)] = []
        for item in items {
            if let value = string(item, "each item of \(what())") { result.append((value, location(item))) }
        }
        return result
    }

    /// SQL given as a string (all dialects) or as `{ sql: …, sqlite: …, postgres: … }`.
    mutating func dialectSQL(_ node: YAMLNode, _ what: @autoclosure () -> String) -> DialectSQL? {
        let where_ = location(node)
        if case .scalar = node {
            guard let sql = nonEmptyString(node, what()) else { return nil }
            return DialectSQL(sqlite: sql, postgres: sql, location: where_)
        }
        guard let entries = mapping(node, what()) else { return nil }
        checkKeys(entries, allowed: SchemaKeys.dialectSQL, in: what())
        var result = DialectSQL(sqlite: nil, postgres: nil, location: where_)
        for entry in entries {
            switch entry.key {
            case "sql":
                let sql = nonEmptyString(entry.value, "\(what()).sql")
                result.sqlite = result.sqlite ?? sql
                result.postgres = result.postgres ?? sql
            case "sqlite": result.sqlite = nonEmptyString(entry.value, "\(what()).sqlite")
            case "postgres": result.postgres = nonEmptyString(entry.value, "\(what()).postgres")
            default: break
            }
        }
        if result.sqlite == nil && result.postgres == nil {
            error("\(what()) needs 'sql', or 'sqlite' and 'postgres'", at: node)
            return nil
        }
        return result
    }
}
