/// Where a node of a version file being rebased comes from: its file (as the rebase names it,
/// e.g. `Schemas/M/v4.yaml`), line and column, and the git ref it was read from.
struct NodeOrigin: Sendable {
    /// The position in the file.
    var location: SourceLocation
    /// The ref the file was read from (`origin/main`, `HEAD`, `working tree`).
    var ref: String
}

/// A version file's YAML as `strata rebase` merges it: mappings with string keys in file order,
/// sequences and scalars, each keeping where it comes from. Two nodes are the same value when
/// their ``canonical`` texts are equal (positions and quoting that does not change a value are
/// ignored).
indirect enum VersionNode: Sendable {
    case scalar(Scalar)
    case mapping([Pair], NodeOrigin?)
    case sequence([VersionNode], NodeOrigin?)

    /// A scalar: its text, how it is written, and what it resolves to (`str`, `int`, `bool`, …).
    struct Scalar: Sendable {
        var text: String
        var tag: YAMLNode.ScalarTag
        var resolved: String
        var origin: NodeOrigin?
    }

    /// A key of a mapping and its value.
    struct Pair: Sendable {
        var key: String
        var value: VersionNode
        var keyOrigin: NodeOrigin?
    }

    /// A plain string scalar, made by the rebase (no origin).
    static func plain(_ text: String) -> VersionNode {
        .scalar(Scalar(text: text, tag: .plain, resolved: "str", origin: nil))
    }

    /// A plain integer scalar, made by the rebase.
    static func integer(_ value: Int) -> VersionNode {
        .scalar(Scalar(text: String(value), tag: .plain, resolved: "int", origin: nil))
    }

    /// Converts a composed YAML node read from `file` at `ref`.
    init(_ node: YAMLNode, file: String, ref: String) {
        func origin(_ mark: YAMLNode.Mark) -> NodeOrigin {
            NodeOrigin(location: SourceLocation(file: file, line: Int(mark.line), column: Int(mark.column)), ref: ref)
        }
        switch node {
        case .scalar(let scalar):
            let resolved = node.tagName.rawValue
            let short = resolved.hasPrefix("tag:yaml.org,2002:") ? String(resolved.dropFirst(18)) : resolved
            self = .scalar(Scalar(text: scalar.string, tag: scalar.tag, resolved: short, origin: origin(scalar.mark)))
        case .mapping(let mapping):
            self = .mapping(
                mapping.pairs.map { pair in
                    let key: String
                    if case .scalar(let scalar) = pair.key { key = scalar.string } else { key = "" }
                    return Pair(
                        key: key, value: VersionNode(pair.value, file: file, ref: ref), keyOrigin: origin(pair.key.mark)
                    )
                }, origin(mapping.mark))
        case .sequence(let list):
            self = .sequence(list.items.map { VersionNode($0, file: file, ref: ref) }, origin(list.mark))
        }
    }

    /// Parses a version file's text; nil with diagnostics when it is not a YAML mapping.
    static func parse(_ text: String, file: String, ref: String) -> (VersionNode?, [Diagnostic]) {
        var bag = DiagnosticBag()
        guard let document = YAMLDocument.parse(text, file: file, diagnostics: &bag) else { return (nil, bag.all) }
        guard let root = document.root, case .mapping = root else {
            bag.error("a version file is a YAML mapping of 'model', 'version', 'entities', …", at: .file(file))
            return (nil, bag.all)
        }
        return (VersionNode(root, file: file, ref: ref), bag.all)
    }

    /// The value as text that ignores positions and quoting that does not change it: equal for
    /// nodes that mean the same.
    var canonical: String {
        var text = ""
        appendCanonical(to: &text)
        return text
    }

    private func appendCanonical(to text: inout String) {
        switch self {
        case .scalar(let scalar):
            text += scalar.resolved
            text += ":"
            text += String(scalar.text.utf8.count)
            text += ":"
            text += scalar.text
        case .mapping(let pairs, _):
            text += "{"
            for pair in pairs {
                text += String(pair.key.utf8.count)
                text += ":"
                text += pair.key
                text += "="
                pair.value.appendCanonical(to: &text)
                text += ","
            }
            text += "}"
        case .sequence(let items, _):
            text += "["
            for item in items {
                item.appendCanonical(to: &text)
                text += ","
            }
            text += "]"
        }
    }

    /// Where the node is written, if it was read from a file.
    var origin: NodeOrigin? {
        switch self {
        case .scalar(let scalar): scalar.origin
        case .mapping(_, let origin), .sequence(_, let origin): origin
        }
    }

    /// The pairs of a mapping (empty for other nodes).
    var pairs: [Pair] {
        if case .mapping(let pairs, _) = self { return pairs }
        return []
    }

    /// The items of a sequence (empty for other nodes).
    var items: [VersionNode] {
        if case .sequence(let items, _) = self { return items }
        return []
    }

    /// The text of a scalar.
    var text: String? {
        if case .scalar(let scalar) = self { return scalar.text }
        return nil
    }

    /// True for a mapping.
    var isMapping: Bool {
        if case .mapping = self { return true }
        return false
    }

    /// The value of `key` in a mapping.
    subscript(key: String) -> VersionNode? {
        get { pairs.first { $0.key == key }?.value }
        set {
            guard case .mapping(var pairs, let origin) = self else { return }
            if let index = pairs.firstIndex(where: { $0.key == key }) {
                if let newValue { pairs[index].value = newValue } else { pairs.remove(at: index) }
            } else if let newValue {
                pairs.append(Pair(key: key, value: newValue, keyOrigin: nil))
            }
            self = .mapping(pairs, origin)
        }
    }

    /// Where `key` of a mapping is written, else the mapping itself.
    func origin(ofKey key: String) -> NodeOrigin? {
        pairs.first { $0.key == key }?.keyOrigin ?? origin
    }

    /// The node with every mapping's pairs passed through `transform` (bottom up).
    func mappingPairs(_ transform: ([Pair]) -> [Pair]) -> VersionNode {
        switch self {
        case .scalar: return self
        case .mapping(let pairs, let origin):
            let inner = pairs.map {
                Pair(key: $0.key, value: $0.value.mappingPairs(transform), keyOrigin: $0.keyOrigin)
            }
            return .mapping(transform(inner), origin)
        case .sequence(let items, let origin):
            return .sequence(items.map { $0.mappingPairs(transform) }, origin)
        }
    }
}
