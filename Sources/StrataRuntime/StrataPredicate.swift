/// A condition on the rows of `Root`'s table: a SQL expression over its columns with its bound
/// values. Build it from columns (`$0.isDone == false && $0.priority >= .high`), never from text.
public struct StrataPredicate<Root>: Sendable {
    /// The SQL expression, with its bound values.
    public let sql: StrataSQL

    /// Creates a predicate. The operators build them; `sql` must only name columns of `Root`'s table.
    public init(_ sql: StrataSQL) {
        self.sql = sql
    }

    /// The values bound to the expression's placeholders, in order.
    public var arguments: [StrataSQLValue] { sql.arguments }

    /// Every row.
    public static var all: StrataPredicate { StrataPredicate("TRUE") }

    /// Both conditions.
    public static func && (lhs: StrataPredicate, rhs: StrataPredicate) -> StrataPredicate {
        StrataPredicate("(\(lhs.sql)) AND (\(rhs.sql))")
    }

    /// This condition and `other`, when there is one.
    public func and(_ other: StrataPredicate?) -> StrataPredicate {
        other.map { self && $0 } ?? self
    }

    /// Either condition.
    public static func || (lhs: StrataPredicate, rhs: StrataPredicate) -> StrataPredicate {
        StrataPredicate("(\(lhs.sql)) OR (\(rhs.sql))")
    }

    /// The opposite condition (rows where the condition is false; SQL NULL stays unknown).
    public static prefix func ! (operand: StrataPredicate) -> StrataPredicate {
        StrataPredicate("NOT (\(operand.sql))")
    }
}

/// One key of a sort: a column and a direction. Build it from a column (`$0.title.ascending`).
public struct StrataOrdering<Root>: Sendable {
    /// The SQL of the key (`"title" ASC`).
    public let sql: StrataSQL

    /// Creates a sort key; `sql` must only name columns of `Root`'s table.
    public init(_ sql: StrataSQL) {
        self.sql = sql
    }
}
