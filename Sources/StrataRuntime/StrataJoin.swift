import Foundation

/// The root of the filters and sorts of a query over records and the records they reference: a
/// condition on either table is a `StrataPredicate<StrataJoin<Record, Partner>>`, so both combine
/// with `&&` and `||`.
public enum StrataJoin<Record, Partner> {}

/// The columns of one table of a join, named through its alias: `post.title`, `writer.name` in
/// `fetchAll(joining:on:where:)`'s closures. As with ``StrataColumns``, comparing a column with a
/// value of another type does not compile.
@dynamicMemberLookup
public struct StrataJoinColumns<Root, Record: StrataRecord>: Sendable {
    /// The table's alias in the query.
    public let alias: String

    /// The columns of `Record`'s table under `alias`.
    @inlinable
    public init(alias: String) {
        self.alias = alias
    }

    /// The column that stores the property at `keyPath`, qualified by the table's alias.
    @inlinable
    public subscript<Value: StrataColumnValue>(dynamicMember keyPath: KeyPath<Record, Value> & Sendable)
        -> StrataColumn<Root, Value>
    {
        let table = Record.strataTable
        return StrataColumn(sql: .identifier(alias) + "." + table.column(keyPath), dateText: table.dateText(keyPath))
    }
}

/// The filter of a join: conditions on the record's columns and the partner's,
/// `{ post, writer in writer.name == "Ada" }`.
public typealias StrataJoinFilter<Record: StrataRecord, Partner: StrataRecord> = (
    StrataJoinColumns<StrataJoin<Record, Partner>, Record>, StrataJoinColumns<StrataJoin<Record, Partner>, Partner>
) -> StrataPredicate<StrataJoin<Record, Partner>>

/// The sort of a join: keys over the record's columns and the partner's,
/// `{ post, writer in [writer.name.ascending, post.title.ascending] }`.
public typealias StrataJoinOrder<Record: StrataRecord, Partner: StrataRecord> = (
    StrataJoinColumns<StrataJoin<Record, Partner>, Record>, StrataJoinColumns<StrataJoin<Record, Partner>, Partner>
) -> [StrataOrdering<StrataJoin<Record, Partner>>]

/// A record with the record it references: `post.record` and `post.partner` (optional when the
/// reference is).
public struct StrataJoined<Record, Partner> {
    /// The record.
    public let record: Record
    /// The record it references.
    public let partner: Partner

    /// A joined pair.
    @inlinable
    public init(record: Record, partner: Partner) {
        self.record = record
        self.partner = partner
    }
}

extension StrataJoined: Sendable where Record: Sendable, Partner: Sendable {}

extension StrataJoined: StrataRowDecodable where Record: StrataRowDecodable, Partner: StrataRowDecodable {
    /// The record's columns, then the partner's.
    @inlinable
    public init(row: inout some StrataRowReader) throws {
        self.init(record: try Record(row: &row), partner: try Partner(row: &row))
    }
}

/// A record that may be missing from a row (the partner of a left join): a Bool column saying
/// whether it is there, then its columns.
extension Optional: StrataRowDecodable where Wrapped: StrataRowDecodable {
    @inlinable
    public init(row: inout some StrataRowReader) throws {
        self = try row.read(Bool.self) ? try Wrapped(row: &row) : nil
    }
}
extension StrataJoined: Equatable where Record: Equatable, Partner: Equatable {}

/// A record with a number: how many records of another table reference it
/// (`fetchAll(counting:via:)`).
public struct StrataCounted<Record> {
    /// The record.
    public let record: Record
    /// How many records reference it.
    public let count: Int

    /// A counted record.
    @inlinable
    public init(record: Record, count: Int) {
        self.record = record
        self.count = count
    }
}

extension StrataCounted: Sendable where Record: Sendable {}
extension StrataCounted: Equatable where Record: Equatable {}

/// A query of records with the records they reference, and how to read its rows: the record's
/// columns from 0, then (for an optional reference) whether there is a partner, then the
/// partner's columns.
public struct StrataJoinQuery: Sendable {
    /// The statement.
    public let statement: StrataSQL
    /// The index of the first partner column.
    public let partnerOffset: Int
    /// True when the partner may be missing: the column before the partner's says whether it is there.
    public let isOptional: Bool

    /// The aliases of the two tables.
    public static let recordAlias = "r", partnerAlias = "p"

    /// The records of `Record` with the `Partner` record their `reference` column holds the key
    /// of (an inner join; a left join when `optional`), filtered and sorted over both tables.
    public init<Record: StrataRecord, Partner: StrataRecord>(
        _ record: Record.Type, joining partner: Partner.Type, on reference: PartialKeyPath<Record> & Sendable,
        optional: Bool,
        where filter: StrataJoinFilter<Record, Partner>?,
        orderBy order: StrataJoinOrder<Record, Partner>?,
        limit: Int?, offset: Int?
    ) {
        let columns = (
            StrataJoinColumns<StrataJoin<Record, Partner>, Record>(alias: Self.recordAlias),
            StrataJoinColumns<StrataJoin<Record, Partner>, Partner>(alias: Self.partnerAlias)
        )
        self.init(
            records: Record.strataTable, partners: Partner.strataTable,
            reference: Record.strataTable.column(reference), optional: optional,
            where: filter?(columns.0, columns.1), orderBy: order?(columns.0, columns.1) ?? [], limit: limit,
            offset: offset)
    }

    /// The join of two tables given as they are (`reference`: the column of `records` that
    /// holds a key of `partners`): what the record-typed initializer builds, and what `strata
    /// verify --compat` prepares from a version's entities.
    public init<Root, Record, Partner>(
        records: StrataTable<Record>, partners: StrataTable<Partner>, reference: StrataSQL, optional: Bool,
        where predicate: StrataPredicate<Root>?, orderBy orderings: [StrataOrdering<Root>], limit: Int?, offset: Int?
    ) {
        let r = Self.recordAlias, p = Self.partnerAlias
        var selection = records.columns.map { StrataSQL.column($0, of: r) }
        let partnerKey = partners.primaryKey.first.map { StrataSQL.column($0, of: p) } ?? "NULL"
        if optional { selection.append("(\(partnerKey) IS NOT NULL)") }
        partnerOffset = selection.count
        selection += partners.columns.map { StrataSQL.column($0, of: p) }
        let join = StrataSQL(verbatim: optional ? "LEFT JOIN" : "JOIN")
        let table: StrataSQL =
            "\(records.sql) AS \(identifier: r) \(join) \(partners.sql) AS \(identifier: p) ON \(identifier: r).\(reference) = \(partnerKey)"
        statement = StrataSQL.select(
            .joined(selection), from: table, where: predicate, orderBy: orderings, limit: limit, offset: offset)
        isOptional = optional
    }
}

/// A value that holds the key of a record of another table: a key type, or an optional one (a
/// reference that may be missing). What makes `via: \.writer` type-checked: the property must hold
/// the referenced record's key.
public protocol StrataReferenceValue: StrataColumnValue {
    /// The key type of the referenced record.
    associatedtype ReferencedKey
    /// The value that references the record with `key`.
    init(referencing key: ReferencedKey)
    /// The key of the referenced record (nil for a reference that holds none).
    var referencedKey: ReferencedKey? { get }
}

/// A key type: a reference holds the key itself.
public protocol StrataKeyReferenceValue: StrataReferenceValue where ReferencedKey == Self {}

extension StrataKeyReferenceValue {
    @inlinable public init(referencing key: Self) { self = key }
    @inlinable public var referencedKey: Self? { self }
}

extension String: StrataKeyReferenceValue {}
extension Int: StrataKeyReferenceValue {}
extension Int64: StrataKeyReferenceValue {}
extension Int32: StrataKeyReferenceValue {}
extension Int16: StrataKeyReferenceValue {}
extension UUID: StrataKeyReferenceValue {}
extension URL: StrataKeyReferenceValue {}
extension Optional: StrataReferenceValue where Wrapped: StrataReferenceValue {
    public typealias ReferencedKey = Wrapped.ReferencedKey
    @inlinable public init(referencing key: ReferencedKey) { self = Wrapped(referencing: key) }
    @inlinable public var referencedKey: ReferencedKey? { flatMap(\.referencedKey) }
}

extension StrataPredicate where Root: StrataRecord {
    /// Records that some `Other` record references through its `reference` property, among those
    /// matching `filter` (any when nil): writers having a published post,
    /// `.exists(Post.self, via: \.writer, where: { $0.published == true })`.
    public static func exists<Other: StrataRecord, Reference: StrataReferenceValue>(
        _ other: Other.Type, via reference: KeyPath<Other, Reference> & Sendable,
        where filter: ((Other.Columns) -> StrataPredicate<Other>)? = nil
    ) -> StrataPredicate where Reference.ReferencedKey == Root.Key {
        let inner = StrataSubquery.related(Other.self, via: reference, of: Root.self, where: filter)
        return StrataPredicate("EXISTS (SELECT 1 FROM \(inner))")
    }
}

/// The records of another table that reference the current row of the outer query's table:
/// what `exists(_:via:where:)` and per-record counts select from.
public enum StrataSubquery {
    /// `"other" AS "strata_related" WHERE "strata_related"."reference" = "outer"."key" [AND filter]`.
    /// The filter's unqualified columns are the related table's (the innermost one in SQL).
    public static func related<Other: StrataRecord, Outer: StrataRecord>(
        _ other: Other.Type, via reference: PartialKeyPath<Other> & Sendable, of outer: Outer.Type,
        where filter: ((Other.Columns) -> StrataPredicate<Other>)?
    ) -> StrataSQL {
        related(
            Other.strataTable, via: Other.strataTable.column(reference), of: Outer.strataTable,
            where: filter?(Other.Columns()))
    }

    /// The rows of `other` whose column `reference` holds the key of the current row of
    /// `outer`, tables given as they are: what the record-typed variant builds.
    public static func related<Other, Outer>(
        _ other: StrataTable<Other>, via reference: StrataSQL, of outer: StrataTable<Outer>,
        where predicate: StrataPredicate<Other>?
    ) -> StrataSQL {
        let alias = StrataSQL.identifier("strata_related")
        let key = outer.primaryKey.first.map(StrataSQL.identifier) ?? "NULL"
        var sql: StrataSQL = "\(other.sql) AS \(alias) WHERE \(alias).\(reference) = \(outer.sql).\(key)"
        if let predicate { sql.append(" AND (\(predicate.sql))") }
        return sql
    }

    /// `(SELECT COUNT(*) FROM related…)`: how many `Other` records reference the outer row.
    public static func count<Other: StrataRecord, Outer: StrataRecord>(
        _ other: Other.Type, via reference: PartialKeyPath<Other> & Sendable, of outer: Outer.Type,
        where filter: ((Other.Columns) -> StrataPredicate<Other>)?
    ) -> StrataSQL {
        count(related(other, via: reference, of: outer, where: filter))
    }

    /// `(SELECT COUNT(*) FROM related)`, of a ``related(_:via:of:where:)`` subquery.
    public static func count(_ related: StrataSQL) -> StrataSQL {
        "(SELECT COUNT(*) FROM \(related))"
    }
}

extension StrataSQL {
    /// The records of `Record` matching `filter`, sorted by `order`, each with the number of `Other`
    /// records that reference it through `reference` (among those matching `counting`): the
    /// record's columns, then the count.
    public static func select<Record: StrataRecord, Other: StrataRecord>(
        _ type: Record.Type, counting other: Other.Type, via reference: PartialKeyPath<Other> & Sendable,
        where counted: ((Other.Columns) -> StrataPredicate<Other>)?,
        filter: ((Record.Columns) -> StrataPredicate<Record>)?,
        orderBy order: ((Record.Columns) -> [StrataOrdering<Record>])?
    ) -> StrataSQL {
        select(
            Record.strataTable,
            counting: StrataSubquery.count(other, via: reference, of: type, where: counted),
            where: filter?(Record.Columns()), orderBy: order?(Record.Columns()) ?? [])
    }

    /// The rows of `table`, each with `count` (a ``StrataSubquery/count(_:)``), tables given as
    /// they are: what the record-typed variant builds.
    public static func select<Record>(
        _ table: StrataTable<Record>, counting count: StrataSQL, where predicate: StrataPredicate<Record>?,
        orderBy orderings: [StrataOrdering<Record>]
    ) -> StrataSQL {
        // The table's own columns are qualified: the count's subquery may read the same table.
        let selection = table.columns.map { StrataSQL.column($0, of: table.name) } + [count]
        return select(.joined(selection), from: table.sql, where: predicate, orderBy: orderings)
    }
}
