/// The records of another table that reference each fetched record, loaded with them: customers
/// with their orders, `db.customers.fetchAll(including: .all(Order.self, via: \.customer))`. Two
/// kinds of statement whatever the number of records: the records, then their children (one
/// statement per thousand records), never one query per record.
public struct StrataIncludedChildren<Record: StrataRecord, Child: StrataRecord> where Record.Key: Hashable {
    /// The key of the record a child references.
    @usableFromInline let parentKey: @Sendable (Child) -> Record.Key?
    /// The plan reading the children of records with these keys.
    @usableFromInline let children: ([Record.Key]) -> StrataPlan<Child, [Child]>

    /// Records per children statement: its keys are bound, and a thousand stays far below every
    /// database's limit of parameters.
    public static var keysPerStatement: Int { 1000 }

    /// The `Child` records whose `reference` holds the record's key, among those matching
    /// `filter` (all when nil), sorted by `order` for each record.
    public static func all<Reference: StrataReferenceValue>(
        _ child: Child.Type, via reference: KeyPath<Child, Reference> & Sendable, where filter: StrataFilter<Child>? = nil,
        orderBy order: StrataSort<Child>? = nil
    ) -> Self where Reference.ReferencedKey == Record.Key {
        StrataIncludedChildren(
            parentKey: { $0[keyPath: reference].referencedKey },
            children: { keys in
                .fetchAll(where: { ($0[dynamicMember: reference].in(keys.map(Reference.init(referencing:)))).and(filter?($0)) }, orderBy: order)
            })
    }

    /// The plans reading the children of `records`.
    @inlinable
    public func plans(for records: [Record]) -> [StrataPlan<Child, [Child]>] {
        var seen = Set<Record.Key>()
        let keys = records.compactMap { record in record.strataKey.flatMap { seen.insert($0).inserted ? $0 : nil } }
        return stride(from: 0, to: keys.count, by: Self.keysPerStatement).map { start in
            children(Array(keys[start..<min(start + Self.keysPerStatement, keys.count)]))
        }
    }

    /// `records`, in their order, each with its children in the order they were read.
    @inlinable
    public func attach(_ children: [Child], to records: [Record]) -> [StrataWithChildren<Record, Child>] {
        var byParent: [Record.Key: [Child]] = [:]
        for child in children {
            if let key = parentKey(child) { byParent[key, default: []].append(child) }
        }
        return records.map { record in
            StrataWithChildren(record: record, children: record.strataKey.flatMap { byParent[$0] } ?? [])
        }
    }
}

/// A record with the records of another table that reference it: `customer.record` and its
/// orders, `customer.children`.
public struct StrataWithChildren<Record, Child> {
    /// The record.
    public let record: Record
    /// The records that reference it.
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
