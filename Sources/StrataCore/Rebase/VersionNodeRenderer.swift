/// Writes a ``VersionNode`` as the YAML of a version file, the way `strata rebase` writes a
/// merged version: deterministic, in the layout of the schema reference's examples.
///
/// - The structure (the top level, `enums`, `entities`, each enum and entity, an entity's
///   `fields`, `hasMany` and `checks`, and `migration`) is written in block style, a key a line.
/// - Everything inside (a field's options, an index, a list of cases) is written in flow style
///   on its key's line: `title: { type: String, default: "" }`, `- [priority, title]`.
/// - A field whose only option is its type is written in the shorthand `name: Type`.
/// - Scalars keep how they were written where that is safe: plain when they were plain (and
///   need no quotes), double-quoted otherwise, with an explicit tag when they had one.
///
/// Every node keeps its value: reading the text back gives the same ``VersionNode/canonical``
/// text, and so the same schema.
struct VersionNodeRenderer {
    /// The lines written so far.
    private(set) var lines: [String] = []
    /// The origin of the node each line starts, by 0-based line index.
    private(set) var origins: [Int: NodeOrigin] = [:]

    /// The text of `root` (a mapping), preceded by `header` lines (comments), ending in a newline.
    static func render(_ root: VersionNode, header: [String] = []) -> (text: String, origins: [Int: NodeOrigin]) {
        var renderer = VersionNodeRenderer()
        renderer.lines = header
        renderer.block(root, path: [], indent: 0)
        return (renderer.lines.joined(separator: "\n") + "\n", renderer.origins)
    }

    /// The paths of the mappings written in block style (`*` matches any key).
    private static func isStructural(_ path: [String]) -> Bool {
        switch path.count {
        case 0: return true
        case 1: return ["enums", "entities", "migration"].contains(path[0])
        case 2: return path[0] == "enums" || path[0] == "entities"
        case 3: return path[0] == "entities" && ["fields", "hasMany", "checks"].contains(path[2])
        default: return false
        }
    }

    private mutating func add(_ line: String, origin: NodeOrigin?) {
        if let origin { origins[lines.count] = origin }
        lines.append(line)
    }

    /// A structural mapping: one key a line at `indent`.
    private mutating func block(_ node: VersionNode, path: [String], indent: Int) {
        let pad = String(repeating: " ", count: indent)
        for pair in node.pairs {
            let key = Self.scalarText(pair.key, tag: .plain, resolved: "str")
            let childPath = path + [pair.key]
            let value = Self.shorthand(pair.value, path: childPath)
            let origin = pair.keyOrigin ?? pair.value.origin
            if Self.isStructural(childPath), value.isMapping, !value.pairs.isEmpty {
                add("\(pad)\(key):", origin: origin)
                block(value, path: childPath, indent: indent + 2)
            } else if path.count == 2, path[0] == "entities", pair.key == "indexes", !value.items.isEmpty {
                add("\(pad)\(key):", origin: origin)
                for item in value.items {
                    add("\(pad)  - \(Self.flow(Self.shorthand(item, path: childPath + ["-"])))", origin: item.origin)
                }
            } else {
                add("\(pad)\(key): \(Self.flow(value))", origin: origin)
            }
        }
    }

    /// A field `{ type: T }` written as `T`; an index `{ fields: [a, b] }` as `[a, b]`.
    private static func shorthand(_ node: VersionNode, path: [String]) -> VersionNode {
        if path.count == 4, path[0] == "entities", path[2] == "fields", node.pairs.count == 1,
            let type = node["type"], case .scalar = type
        {
            return type
        }
        if path.count == 4, path[0] == "entities", path[2] == "indexes", node.pairs.count == 1,
            let fields = node["fields"], case .sequence = fields
        {
            return fields
        }
        return node
    }

    /// A node in flow style, on one line.
    static func flow(_ node: VersionNode) -> String {
        switch node {
        case .scalar(let scalar):
            return scalarText(scalar.text, tag: scalar.tag, resolved: scalar.resolved)
        case .sequence(let items, _):
            return items.isEmpty ? "[]" : "[" + items.map(flow).joined(separator: ", ") + "]"
        case .mapping(let pairs, _):
            guard !pairs.isEmpty else { return "{}" }
            let inner = pairs.map { scalarText($0.key, tag: .plain, resolved: "str") + ": " + flow($0.value) }
            return "{ " + inner.joined(separator: ", ") + " }"
        }
    }

    /// A scalar's text: plain when it was plain and is safe unquoted, else double-quoted (with
    /// its explicit tag, if any).
    static func scalarText(_ text: String, tag: YAMLNode.ScalarTag, resolved: String) -> String {
        switch tag {
        case .plain:
            if isSafePlain(text) { return text }
            if resolved == "str" { return doubleQuoted(text) }
            return "!<tag:yaml.org,2002:\(resolved)> " + doubleQuoted(text)
        case .quoted:
            return doubleQuoted(text)
        case .explicit(let name):
            if name == "!" { return doubleQuoted(text) }
            return "!<\(name)> " + doubleQuoted(text)
        }
    }

    /// True when `text` reads back as the same plain scalar in block and flow context.
    static func isSafePlain(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last, last != " " else {
            return false
        }
        let startsWell =
            first.properties.isAlphabetic || ("0"..."9").contains(first) || first == "_" || first == "." || first == "~"
            || first == "+"
            || (first == "-" && text.unicodeScalars.count > 1 && text.unicodeScalars.dropFirst().first != " ")
        guard startsWell else { return false }
        for scalar in text.unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) { continue }
            if !"_.-+~/()*=<>!?%$@;'\"&|^ ".unicodeScalars.contains(scalar) { return false }
        }
        return !text.contains("  ")
    }

    /// `text` as a double-quoted YAML scalar: a JSON string literal (which YAML reads alike),
    /// with the characters YAML does not allow unescaped, or reads as line breaks, escaped too.
    static func doubleQuoted(_ text: String) -> String {
        let json = DiagnosticJSON.quoted(text)
        guard json.unicodeScalars.contains(where: { $0.value >= 0x7F && Self.needsYAMLEscape($0) }) else { return json }
        var out = ""
        for scalar in json.unicodeScalars {
            if scalar.value >= 0x7F, Self.needsYAMLEscape(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// DEL and the C1 controls (not printable in YAML), the next-line and line and paragraph
    /// separators (line breaks in YAML 1.1), and the byte order mark.
    private static func needsYAMLEscape(_ scalar: Unicode.Scalar) -> Bool {
        (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
            || scalar.value == 0xFEFF
    }
}
