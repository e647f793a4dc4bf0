/// A SQL statement or a piece of one, as segments: text, identifiers, bound values and
/// parameters, kept apart until a dialect renders them (``sql(_:)``), as swift-structured-queries'
/// `QueryFragment` does. Each database quotes identifiers and writes placeholders its own way;
/// values are never spliced into the text.
///
/// Built by the runtime and generated code from columns, predicates and orderings, never from a
/// user's text: `"\(column) = \(value: .integer(1))"` is a fragment with one identifier and one value.
public struct StrataSQL: Hashable, Sendable {
    /// One piece of a fragment.
    public enum Segment: Hashable, Sendable {
        /// SQL text, written as it is.
        case text(String)
        /// A table, column or alias name, quoted by the dialect.
        case identifier(String)
        /// A value bound to the next placeholder (numbered in order among the values).
        case value(StrataSQLValue)
        /// The placeholder of parameter `n` (from 1), whose value the caller binds itself: a
        /// record's columns in field order, or a key.
        case parameter(Int)
        /// A type name, for casts: the same meaning on every database, spelled its own way.
        case type(StrataSQLType)
        /// Full-text search SQL over a table, written by each database its own way, with the
        /// search query it binds (``StrataFullTextPart/rank`` binds none).
        case fullText(StrataFullTextPart, StrataSearch, query: StrataSQLValue?)
        /// A test on an array column (a column's SQL), written by each database its own way, with
        /// the array it binds (``StrataArrayTest/isEmpty`` binds none).
        indirect case arrayTest(StrataArrayTest, column: StrataSQL, StrataSQLValue?)
        /// The SQL around a JSON column that reads one of its members, written by each database
        /// its own way (``StrataJSONMemberPart``).
        case jsonMember(StrataJSONMemberPart)
    }

    /// The segments, in order.
    public private(set) var segments: [Segment]

    /// An empty fragment.
    public init() {
        segments = []
    }

    /// A fragment of SQL text, written as it is (an interpolated literal is a fragment, not text:
    /// `"\(column) = \(value: v)"`).
    public init(verbatim text: String) {
        segments = text.isEmpty ? [] : [.text(text)]
    }

    /// A fragment of the given segments.
    public init(segments: [Segment]) {
        self.segments = []
        for segment in segments { append(segment) }
    }

    /// A quoted identifier: `"order"`.
    public static func identifier(_ name: String) -> StrataSQL {
        StrataSQL(segments: [.identifier(name)])
    }

    /// A qualified column, `"alias"."column"`.
    public static func column(_ name: String, of alias: String) -> StrataSQL {
        StrataSQL(segments: [.identifier(alias), .text("."), .identifier(name)])
    }

    /// A bound value.
    public static func value(_ value: StrataSQLValue) -> StrataSQL {
        StrataSQL(segments: [.value(value)])
    }

    /// True when the fragment has no segment.
    public var isEmpty: Bool { segments.isEmpty }

    /// The values bound to the fragment's placeholders, in order.
    public var arguments: [StrataSQLValue] {
        segments.compactMap {
            switch $0 {
            case .value(let value), .fullText(_, _, query: let value?), .arrayTest(_, _, let value?): value
            default: nil
            }
        }
    }

    /// Appends a segment (text after text joins it).
    public mutating func append(_ segment: Segment) {
        if case .text(let text) = segment {
            guard !text.isEmpty else { return }
            if case .text(let last)? = segments.last {
                segments[segments.count - 1] = .text(last + text)
                return
            }
        }
        segments.append(segment)
    }

    /// Appends another fragment.
    public mutating func append(_ other: StrataSQL) {
        for segment in other.segments { append(segment) }
    }

    /// The fragments, one after the other, with `separator` between them.
    public static func joined(_ fragments: some Sequence<StrataSQL>, separator: String = ", ") -> StrataSQL {
        var joined = StrataSQL()
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { joined.append(.text(separator)) }
            joined.append(fragment)
        }
        return joined
    }

    /// Both fragments, one after the other.
    public static func + (lhs: StrataSQL, rhs: StrataSQL) -> StrataSQL {
        var result = lhs
        result.append(rhs)
        return result
    }

    /// The SQL text in `dialect`: identifiers quoted, values and parameters as its placeholders
    /// (the values numbered from 1 in order; a parameter by its own number).
    public func sql<Dialect: StrataSQLDialect>(_ dialect: Dialect.Type) -> String {
        var sql = ""
        var number = 0
        for segment in segments {
            switch segment {
            case .text(let text): sql += text
            case .identifier(let name): sql += Dialect.quoted(name)
            case .value:
                number += 1
                sql += Dialect.placeholder(number)
            case .parameter(let number): sql += Dialect.placeholder(number)
            case .type(let type): sql += Dialect.name(of: type)
            case .fullText(let part, let search, let query):
                if query != nil { number += 1 }
                sql += Dialect.fullText(part, of: search, query: Dialect.placeholder(number))
            case .arrayTest(let test, let column, let value):
                if value != nil { number += 1 }
                sql += Dialect.arrayTest(test, column: column.sql(Dialect.self), array: Dialect.placeholder(number))
            case .jsonMember(let part): sql += Dialect.jsonMember(part)
            }
        }
        return sql
    }
}

extension StrataSQL: ExpressibleByStringInterpolation {
    /// A fragment of SQL text.
    public init(stringLiteral text: String) {
        self.init(verbatim: text)
    }

    /// A fragment written as text with fragments, identifiers, values and types interpolated.
    public init(stringInterpolation: StringInterpolation) {
        self = stringInterpolation.fragment
    }

    /// The pieces of an interpolated fragment.
    public struct StringInterpolation: StringInterpolationProtocol {
        var fragment = StrataSQL()

        /// Space for a literal of about `literalCapacity` characters and `interpolationCount` pieces.
        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// SQL text.
        public mutating func appendLiteral(_ literal: String) { fragment.append(.text(literal)) }

        /// A fragment.
        public mutating func appendInterpolation(_ other: StrataSQL) { fragment.append(other) }

        /// A quoted identifier.
        public mutating func appendInterpolation(identifier name: String) { fragment.append(Segment.identifier(name)) }

        /// A bound value.
        public mutating func appendInterpolation(value: StrataSQLValue) { fragment.append(Segment.value(value)) }

        /// The placeholder of parameter `number`, bound by the caller.
        public mutating func appendInterpolation(parameter number: Int) { fragment.append(Segment.parameter(number)) }

        /// A type name.
        public mutating func appendInterpolation(type: StrataSQLType) { fragment.append(Segment.type(type)) }
    }
}
