/// A condition on the rows of `Root`'s table: a SQL expression over its columns with its bound
/// values. Build it from columns (`$0.isDone == false && $0.priority >= .high`), never from text.
public struct StrataPredicate<Root>: Sendable {
    /// The SQL expression, with `?` for each argument.
    public let sql: String
    /// The values bound to the `?`s, in order.
    public let arguments: [StrataSQLValue]

    /// Creates a predicate. Generated code and the operators build them; `sql` must only name
    /// quoted columns of `Root`'s table.
    public init(sql: String, arguments: [StrataSQLValue]) {
        self.sql = sql
        self.arguments = arguments
    }

    /// Every row.
    public static var all: StrataPredicate { StrataPredicate(sql: "TRUE", arguments: []) }

    /// Both conditions.
    public static func && (lhs: StrataPredicate, rhs: StrataPredicate) -> StrataPredicate {
        StrataPredicate(sql: "(\(lhs.sql)) AND (\(rhs.sql))", arguments: lhs.arguments + rhs.arguments)
    }

    /// This condition and `other`, when there is one.
    public func and(_ other: StrataPredicate?) -> StrataPredicate {
        other.map { self && $0 } ?? self
    }

    /// Either condition.
    public static func || (lhs: StrataPredicate, rhs: StrataPredicate) -> StrataPredicate {
        StrataPredicate(sql: "(\(lhs.sql)) OR (\(rhs.sql))", arguments: lhs.arguments + rhs.arguments)
    }

    /// The opposite condition (rows where the condition is false; SQL NULL stays unknown).
    public static prefix func ! (operand: StrataPredicate) -> StrataPredicate {
        StrataPredicate(sql: "NOT (\(operand.sql))", arguments: operand.arguments)
    }
}

/// One key of a sort: a column and a direction. Build it from a column (`$0.title.ascending`).
public struct StrataOrdering<Root>: Sendable {
    /// The SQL of the key (`"title" ASC`).
    public let sql: String

    /// Creates a sort key; `sql` must only name quoted columns of `Root`'s table.
    public init(sql: String) {
        self.sql = sql
    }
}
