/// The records related to each fetched record, loaded with them: customers with their orders,
/// `db.customers.fetchAll(including: .all(Order.self, via: \.customer))`, or books with their tags
/// through a join entity, `.all(Tag.self, through: BookTags.self, from: \.book, to: \.tag)`. Two
/// kinds of statement whatever the number of records: the records, then their children (one
/// statement per thousand records), never one query per record.
public struct StrataIncludedChildren<Record: StrataRecord, Child: StrataRecord>
where Record.Key: Hashable & StrataColumnValue {
    /// The query reading the children of records with these keys: each row the key of the record
    /// it belongs to, then the child.
    @usableFromInline let query: ([Record.Key]) -> StrataRowQuery<StrataLinkedRow<Record.Key, Child>>

    /// Records per children statement: its keys are bound, and a thousand stays far below every
    /// database's limit of parameters.
    public static var keysPerStatement: Int { 1000 }

    /// Children read by `query`.
    @usableFromInline
    init(query: @escaping ([Record.Key]) -> StrataRowQuery<StrataLinkedRow<Record.Key, Child>>) {
        self.query = query
    }

    /// The queries reading the children of `records`.
    @inlinable
    public func queries(for records: [Record]) -> [StrataRowQuery<StrataLinkedRow<Record.Key, Child>>] {
        var seen = Set<Record.Key>()
        let keys = records.compactMap { record in record.strataKey.flatMap { seen.insert($0).inserted ? $0 : nil } }
        return stride(from: 0, to: keys.count, by: Self.keysPerStatement).map { start in
            query(Array(keys[start..<min(start + Self.keysPerStatement, keys.count)]))
        }
    }

    /// `records`, in their order, each with its children in the order they were read: the rows
    /// of the children statements (``queries(for:)``), grouped as each database's executor reads
    /// them (``StrataChildrenByParent/add(_:)``).
    @inlinable
    public func attach(_ children: StrataChildrenByParent<Record.Key, Child>, to records: [Record])
        -> [StrataWithChildren<Record, Child>]
    {
        records.map { record in
            StrataWithChildren(record: record, children: record.strataKey.flatMap { children.byParent[$0] } ?? [])
        }
    }

    /// The `Child` records whose `reference` holds the record's key, among those matching
    /// `filter` (all when nil), sorted by `order` for each record. The reference's column is read
    /// first in each row, so that no key path is read per child.
    public static func all<Reference: StrataReferenceValue>(
        _ child: Child.Type, via reference: KeyPath<Child, Reference> & Sendable, where filter: StrataFilter<Child>? = nil,
        orderBy order: StrataSort<Child>? = nil
    ) -> Self where Reference.ReferencedKey == Record.Key {
        StrataIncludedChildren(query: { keys in
            let columns = Child.Columns()
            let column = columns[dynamicMember: reference]
            let table = Child.strataTable
            let predicate = column.in(keys.map(Reference.init(referencing:))).and(filter?(columns))
            let select = StrataSQL.select(
                .joined([table.column(reference), table.selection]), from: table.sql, where: predicate,
                orderBy: order?(columns) ?? [])
            return StrataRowQuery(select, StrataLinkedRow())
        })
    }

    /// The `Child` records that rows of the join entity `Join` link to the record: those whose
    /// key a `Join` row's `to` holds, that row's `from` holding the record's key. Among the
    /// children matching `filter`, sorted by `order` for each record: books with their tags,
    /// `.all(Tag.self, through: BookTags.self, from: \.book, to: \.tag)`.
    public static func all<Join: StrataRecord, From: StrataReferenceValue, To: StrataReferenceValue>(
        _ child: Child.Type, through join: Join.Type, from: KeyPath<Join, From> & Sendable, to: KeyPath<Join, To> & Sendable,
        where filter: StrataFilter<Child>? = nil, orderBy order: StrataSort<Child>? = nil
    ) -> Self where From.ReferencedKey == Record.Key, To.ReferencedKey == Child.Key {
        StrataIncludedChildren(query: { keys in
            let links = Join.strataTable, children = Child.strataTable
            let fromColumn = links.column(from), toColumn = links.column(to)
            let link = StrataSQL.identifier("strata_link")
            let childKey = children.primaryKey.first.map(StrataSQL.identifier) ?? "NULL"
            let keyList = StrataSQL.joined(keys.map { StrataSQL.value(From(referencing: $0).strataSQLValue) })
            // The links are a subquery with columns of their own names, so that the filter's
            // and the sort's unqualified columns can only be the children's.
            let linked: StrataSQL =
                "\(children.sql) JOIN (SELECT \(fromColumn) AS \(identifier: "strata_from"), \(toColumn) AS \(identifier: "strata_to") FROM \(links.sql) WHERE \(fromColumn) IN (\(keyList))) AS \(link) ON \(link).\(identifier: "strata_to") = \(children.sql).\(childKey)"
            let columns = Child.Columns()
            let childColumns = StrataSQL.joined(children.columns.map { StrataSQL.column($0, of: children.name) })
            let selection: StrataSQL = "\(link).\(identifier: "strata_from"), \(childColumns)"
            return StrataRowQuery(
                .select(selection, from: linked, where: filter?(columns), orderBy: order?(columns) ?? []),
                StrataLinkedRow())
        })
    }
}

/// Children grouped by the key of the record each belongs to, in the order they are read: what
/// an executor fills row by row, so that no array of all the rows is kept first.
public struct StrataChildrenByParent<Key: Hashable, Child> {
    /// The children of each record's key.
    @usableFromInline var byParent: [Key: [Child]]

    /// No children yet, with room for those of `parents` records.
    @inlinable
    public init(parents: Int) {
        byParent = Dictionary(minimumCapacity: parents)
    }

    /// Adds a child of the record whose key is `parent`.
    @inlinable
    public mutating func add(_ child: consuming Child, to parent: Key) {
        byParent[parent, default: []].append(child)
    }
}

extension StrataChildrenByParent: Sendable where Key: Sendable, Child: Sendable {}

/// A row of the children of records: the key of the record it belongs to, then the child.
public struct StrataLinkedRow<Key: StrataColumnValue, Linked: StrataRowDecodable>: StrataRowShape {
    /// The shape.
    @inlinable
    public init() {}

    @inlinable
    public func read(from row: inout some StrataRowReader) throws -> (Key, Linked) {
        (try Key.read(from: &row), try Linked(row: &row))
    }
}

/// A record with the records related to it: `customer.record` and its orders,
/// `customer.children`.
public struct StrataWithChildren<Record, Child> {
    /// The record.
    public let record: Record
    /// The records related to it.
    public let children: [Child]

    /// A record with its children.
    @inlinable
    public init(record: Record, children: [Child]) {
        self.record = record
        self.children = children
    }
}

extension StrataWithChildren: Sendable where Record: Sendable, Child: Sendable {}
extension StrataWithChildren: Equatable where Record: Equatable, Child: Equatable {}

extension StrataPredicate where Root: StrataRecord {
    /// Records that rows of the join entity `Join` link to the record with `key`: those whose
    /// key a `Join` row's `to` holds, that row's `from` holding `key` (a book's tags,
    /// `.linked(through: BookTags.self, from: \.book, key, to: \.tag)`).
    public static func linked<Join: StrataRecord, From: StrataReferenceValue, To: StrataReferenceValue>(
        through join: Join.Type, from: KeyPath<Join, From> & Sendable, _ key: From.ReferencedKey,
        to: KeyPath<Join, To> & Sendable
    ) -> StrataPredicate where To.ReferencedKey == Root.Key {
        let links = Join.strataTable
        let rootKey = Root.strataTable.primaryKey.first.map(StrataSQL.identifier) ?? "NULL"
        let value = StrataSQL.value(From(referencing: key).strataSQLValue)
        return StrataPredicate(
            "\(rootKey) IN (SELECT \(links.column(to)) FROM \(links.sql) WHERE \(links.column(from)) = \(value))")
    }
}
