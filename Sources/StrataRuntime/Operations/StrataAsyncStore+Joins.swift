extension StrataAsyncStore {
    /// The records matching `filter`, each with the `Partner` record its `reference` property holds
    /// the key of, in one query: `db.posts.fetchAll(joining: Writer.self, on: \.writer,
    /// where: { post, writer in writer.name == "Ada" }, orderBy: { post, _ in [post.title.ascending] })`.
    @inlinable
    public func fetchAll<Partner: StrataRecord>(
        joining partner: Partner.Type, on reference: KeyPath<Record, Partner.Key> & Sendable,
        where filter: StrataJoinFilter<Record, Partner>? = nil, orderBy order: StrataJoinOrder<Record, Partner>? = nil,
        limit: Int? = nil, offset: Int? = nil
    ) async throws -> [StrataJoined<Record, Partner>] {
        try await rows(.joined(Record.self, joining: partner, on: reference, where: filter, orderBy: order, limit: limit, offset: offset))
    }

    /// The records matching `filter`, each with the `Partner` record its optional `reference`
    /// property holds the key of, or nil (a record without one is kept: a left join).
    @inlinable
    public func fetchAll<Partner: StrataRecord>(
        joining partner: Partner.Type, on reference: KeyPath<Record, Partner.Key?> & Sendable,
        where filter: StrataJoinFilter<Record, Partner>? = nil, orderBy order: StrataJoinOrder<Record, Partner>? = nil,
        limit: Int? = nil, offset: Int? = nil
    ) async throws -> [StrataJoined<Record, Partner?>] {
        try await rows(.leftJoined(Record.self, joining: partner, on: reference, where: filter, orderBy: order, limit: limit, offset: offset))
    }

    /// The records matching `filter`, sorted by `order`, each with the number of `Other` records
    /// (among those matching `counted`) whose `reference` property holds its key: writers with
    /// their number of posts, `db.writers.fetchAll(counting: Post.self, via: \.writer)`.
    @inlinable
    public func fetchAll<Other: StrataRecord, Reference: StrataReferenceValue>(
        counting other: Other.Type, via reference: KeyPath<Other, Reference> & Sendable,
        where counted: StrataFilter<Other>? = nil, filter: StrataFilter<Record>? = nil, orderBy order: StrataSort<Record>? = nil
    ) async throws -> [StrataCounted<Record>] where Reference.ReferencedKey == Record.Key {
        try await rows(.counting(Record.self, other, via: reference, where: counted, filter: filter, orderBy: order))
    }
}

extension StrataAsyncStore where Record.Key: Hashable & StrataColumnValue {
    /// The records matching `filter`, sorted by `order`, skipping `offset`, at most `limit`, each
    /// with the records that reference it, in two kinds of statement (never one per record):
    /// `try await db.customers.fetchAll(including: .all(Order.self, via: \.customer))`.
    @inlinable
    public func fetchAll<Child>(
        where filter: StrataFilter<Record>? = nil, orderBy order: StrataSort<Record>? = nil, limit: Int? = nil,
        offset: Int? = nil, including included: StrataIncludedChildren<Record, Child>
    ) async throws -> [StrataWithChildren<Record, Child>] {
        let records = try await run(.fetchAll(where: filter, orderBy: order, limit: limit, offset: offset))
        var children = StrataChildrenByParent<Record.Key, Child>(parents: records.count)
        for query in included.queries(for: records) {
            for (parent, child) in try await rows(query) { children.add(child, to: parent) }
        }
        return included.attach(children, to: records)
    }
}
