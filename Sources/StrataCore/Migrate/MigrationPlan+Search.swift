extension MigrationPlan {
    /// The continued entities (at N, and at N-1) whose full-text search a migration drops and
    /// creates again: those whose `search:` changed (``SchemaChange/searchChanged(entity:from:to:)``),
    /// and those searched at both versions for which `alsoWhen` holds (a SQLite table rebuilt or a
    /// searched column renamed: SQLite's FTS5 table names the columns, and the rebuild drops the
    /// triggers).
    func recreatedSearches(alsoWhen: (Entity, Entity) -> Bool) -> [(entity: Entity, old: Entity)] {
        to.entities.compactMap { entity in
            guard let old = previous(of: entity), entity.search != nil || old.search != nil else { return nil }
            let changed = changes(of: entity).contains { if case .searchChanged = $0 { true } else { false } }
            return changed || (entity.search != nil && old.search != nil && alsoWhen(entity, old)) ? (entity, old) : nil
        }
    }

    /// True when a searched field of `entity` has another column at N-1 than at N.
    func renamesSearchedColumn(_ entity: Entity, old: Entity) -> Bool {
        (entity.search?.fields ?? []).contains { name in
            guard let field = entity.field(named: name), let previous = SchemaDiff.previous(of: field, in: old) else {
                return false
            }
            return previous.column != field.column
        }
    }
}
