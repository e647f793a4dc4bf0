extension SchemaParser {
    /// Reads an entity's `search:`: `[title, body]`, or `{ fields: [title, body], language: english }`.
    ///
    /// Every problem is reported, at the element it concerns: an unknown, repeated or non-`String`
    /// field, an empty list, an unknown language, and a key SQLite's FTS5 index cannot follow (it
    /// follows the rowid, which only a single integer key keeps across `VACUUM`).
    mutating func parseSearch(_ node: YAMLNode, of entity: Entity) -> FullTextSearch? {
        let what = "'search' of entity '\(entity.name)'"
        var fieldsNode = node
        var language = SearchLanguage.simple
        if case .mapping = node {
            guard let entries = reader.mapping(node, what) else { return nil }
            reader.checkKeys(entries, allowed: SchemaKeys.search, in: what)
            guard let fields = entries.first(where: { $0.key == "fields" }) else {
                reader.error("\(what) needs 'fields': the String fields to search", at: node)
                return nil
            }
            fieldsNode = fields.value
            if let entry = entries.first(where: { $0.key == "language" }),
                let text = reader.nonEmptyString(entry.value, "the language of \(what)")
            {
                if let known = SearchLanguage(rawValue: text) {
                    language = known
                } else {
                    let names = SearchLanguage.allCases.map(\.rawValue)
                    reader.error(
                        "unknown search language '\(text)'; expected one of \(names.joined(separator: ", "))"
                            + Suggestion.didYouMean(text, in: names), at: entry.value)
                }
            }
        }
        guard let names = reader.stringList(fieldsNode, "the fields of \(what) (a list of String fields)") else {
            return nil
        }
        if names.isEmpty { reader.error("\(what) needs at least one field", at: fieldsNode) }
        var search = FullTextSearch(fields: [], language: language, location: reader.location(node))
        for (name, location) in names {
            guard let field = entity.field(named: name) else {
                reader.diagnostics.error(
                    "search names unknown field '\(name)' of '\(entity.name)'"
                        + Suggestion.didYouMean(name, in: entity.fields.map(\.name)), at: location)
                continue
            }
            if search.fields.contains(name) {
                reader.diagnostics.error("field '\(name)' appears twice in the search of '\(entity.name)'", at: location)
            } else if field.type != .scalar(.string) {
                reader.diagnostics.error(
                    "search field '\(name)' of '\(entity.name)' has type \(field.type)\(field.isOptional ? "?" : ""); only String fields can be searched",
                    at: location)
            } else {
                search.fields.append(name)
                search.fieldLocations.append(location)
            }
        }
        if let problem = Self.searchKeyProblem(of: entity) {
            reader.diagnostics.error("\(what): \(problem)", at: search.location)
        }
        let name = FullTextSearch.name(table: entity.table)
        if let clash = entity.fields.first(where: { $0.column == name }) {
            reader.diagnostics.error(
                "\(what) needs the column name '\(name)' on PostgreSQL, which field '\(clash.name)' has; rename the field or its column",
                at: search.location)
        }
        return search.fields.isEmpty ? nil : search
    }

    /// Why SQLite's FTS5 index cannot follow the rows of `entity`, or nil: it needs a single
    /// integer primary key, which is the table's rowid (any other rowid `VACUUM` may renumber).
    static func searchKeyProblem(of entity: Entity) -> String? {
        guard entity.primaryKey.count == 1, let key = entity.singlePrimaryKey else {
            return entity.primaryKey.isEmpty
                ? nil
                : "full-text search needs a single integer primary key (SQLite's FTS5 index follows the rowid); '\(entity.name)' has the key (\(entity.primaryKey.joined(separator: ", ")))"
        }
        if case .scalar(let type) = key.type, type.isInteger, key.sqlType == nil, !key.isOptional { return nil }
        return "full-text search needs a single integer primary key (SQLite's FTS5 index follows the rowid, which VACUUM renumbers for other keys); '\(entity.name).\(key.name)' has type \(key.type)"
    }
}
