extension StrataStore where Record: StrataSearchable {
    /// The records whose searched fields contain every word of `text`, best match first, that
    /// also match `filter` (all when nil), at most `limit`; none for a text without a word.
    /// The text is never the database's search syntax (FTS5's, `tsquery`'s): quotes, `AND`, `&`,
    /// `!`, `*`, `:*` or `NEAR(` are words like any other.
    public func search(_ text: String, where filter: StrataFilter<Record>? = nil, limit: Int? = nil) throws -> [Record] {
        try run(.search(text, where: filter, limit: limit))
    }
}
