import Yams

/// A YAML node as the schema parser reads it, composed by ``YAMLComposer`` from libyaml's events.
///
/// Leaner than Yams' `Node`, which the parser used before: no tag object, anchor or style per
/// node, positions as two 32-bit numbers, and no dictionary per mapping to find duplicate keys.
/// A version file's nodes take a few times its size instead of about thirty times.
enum YAMLNode: Sendable {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(List)

    /// A 1-based line and column (columns in characters, as libyaml counts them).
    struct Mark: Sendable {
        var line: Int32
        var column: Int32
    }

    /// A scalar's tag as written: none (plain), quoted (a string), or explicit (`!!int 5`, `! x`).
    enum ScalarTag: Sendable {
        case plain
        case quoted
        case explicit(String)
    }

    struct Scalar: Sendable {
        var string: String
        var tag: ScalarTag
        var mark: Mark
    }

    struct Mapping: Sendable {
        var pairs: [(key: YAMLNode, value: YAMLNode)]
        var mark: Mark
        var count: Int { pairs.count }
    }

    struct List: Sendable {
        var items: [YAMLNode]
        var mark: Mark
    }

    var mark: Mark {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .mapping(let mapping): mapping.mark
        case .sequence(let list): list.mark
        }
    }

    /// The resolved tag (`str`, `int`, `bool`, …): plain scalars by YAML 1.1's rules (Yams' default
    /// resolver), quoted ones as `str`.
    ///
    /// A plain scalar that starts with a letter is a string unless it is one of YAML 1.1's boolean
    /// or null words (every other rule needs a digit, sign, dot, `~`, `<<` or `=` first), which
    /// spares most scalars the default resolver's regular expressions.
    var tagName: Tag.Name {
        switch self {
        case .mapping: return .map
        case .sequence: return .seq
        case .scalar(let scalar):
            switch scalar.tag {
            case .quoted: return .str
            case .explicit(let name): return name == Tag.Name.nonSpecific.rawValue ? .str : Tag.Name(rawValue: name)
            case .plain:
                if let first = scalar.string.utf8.first,
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20)
                {
                    // The boolean and null words are exactly what the resolver's first rules match.
                    return Self.reservedWordTag(scalar.string) ?? .str
                }
                // A decimal integer without a leading zero (`0`, `-12`): an integer by YAML 1.1's
                // first matching rule, without running the resolver's regular expressions.
                if let digits = Self.decimalDigits(scalar.string),
                    digits.count == 1 || digits.first != UInt8(ascii: "0")
                {
                    return .int
                }
                return Resolver.default.resolveTag(of: yamsNode)
            }
        }
    }

    /// `.bool` or `.null` for the plain words that YAML 1.1 reads so (``reservedWords``), nil for
    /// any other text.
    private static func reservedWordTag(_ text: String) -> Tag.Name? {
        // Only words of these lengths and first letters can be one (most text is not looked up).
        guard let first = text.utf8.first.map({ $0 | 0x20 }) else { return nil }
        switch (text.utf8.count, first) {
        case (2, UInt8(ascii: "n")), (2, UInt8(ascii: "o")), (3, UInt8(ascii: "y")), (3, UInt8(ascii: "o")),
            (4, UInt8(ascii: "t")), (5, UInt8(ascii: "f")):
            return reservedWords.contains(text) ? .bool : nil
        case (4, UInt8(ascii: "n")):
            return reservedWords.contains(text) ? .null : nil
        default:
            return nil
        }
    }

    /// The digits of a decimal integer without `_` (`0`, `-12`, `007`), after its `-`; nil for
    /// any other text.
    private static func decimalDigits(_ text: String) -> Substring.UTF8View? {
        var digits = Substring(text).utf8
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return digits
    }

    /// The scalar as Yams' value, for Yams' own readings of booleans and numbers.
    private var yamsNode: Node {
        guard case .scalar(let scalar) = self else { return Node("") }
        let name: Tag.Name
        switch scalar.tag {
        case .plain: name = .implicit
        case .quoted: name = .str
        case .explicit(let explicit): name = Tag.Name(rawValue: explicit)
        }
        return .scalar(Node.Scalar(scalar.string, Tag(name, .basic, .default)))
    }

    /// The value of a boolean scalar (`true`, `yes`, `on`, …), as Yams reads it.
    var bool: Bool? {
        // A plain boolean word without building Yams' node: Yams lowercases it and reads
        // `true`, `yes`, `on` as true, `false`, `no`, `off` as false.
        if case .scalar(let scalar) = self, case .plain = scalar.tag, Self.reservedWordTag(scalar.string) == .bool {
            switch scalar.string.utf8.first.map({ $0 | 0x20 }) {
            case UInt8(ascii: "t"), UInt8(ascii: "y"): return true
            case UInt8(ascii: "o"): return scalar.string.utf8.count == 2
            default: return false
            }
        }
        return yamsNode.bool
    }
    /// The value of an integer scalar, as Yams reads it.
    var int: Int? { yamsNode.int }
    /// The value of a number scalar, as Yams reads it.
    var float: Double? {
        // Yams reads any scalar as a number by its text alone; a decimal integer (`0`, `-12`)
        // is `Double(text)` there too.
        if case .scalar(let scalar) = self, Self.decimalDigits(scalar.string) != nil { return Double(scalar.string) }
        return yamsNode.float
    }

    /// The plain scalars starting with a letter that Yams' default resolver does not read as strings.
    private static let reservedWords: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
    ]
}
