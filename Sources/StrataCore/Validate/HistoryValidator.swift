/// Checks across versions: `renamedFrom` and `allowDataLoss` must name things of the previous
/// version; `allowLocks`, which speaks of the migration into a version, things of that version.
enum HistoryValidator {
    static func validate(_ history: SchemaHistory) -> [Diagnostic] {
        var bag = DiagnosticBag()
        for (offset, schema) in history.versions.enumerated() {
            if offset == 0 {
                checkFirst(schema, &bag)
            } else {
                checkAgainstPrevious(schema, previous: history.versions[offset - 1], &bag)
            }
        }
        return bag.all
    }

    private static func checkFirst(_ schema: Schema, _ bag: inout DiagnosticBag) {
        let note = "v1 has no previous version"
        for entity in schema.entities {
            if entity.renamedFrom != nil { bag.error("'renamedFrom' on entity '\(entity.name)': \(note)", at: entity.location) }
            for field in entity.fields {
                if field.renamedFrom != nil { bag.error("'renamedFrom' on field '\(field.name)': \(note)", at: field.location) }
                if field.transform != nil { bag.error("'transform' on field '\(field.name)': \(note) to compute it from", at: field.location) }
            }
        }
        for item in schema.migration.allowDataLoss {
            bag.error("'allowDataLoss' names '\(item.spelled)': \(note) to lose data from", at: item.location)
        }
        for item in schema.migration.allowLocks {
            bag.error("'allowLocks' names '\(item.spelled)': \(note), so no migration takes locks into it", at: item.location)
        }
    }

    /// `allowLocks` items must name an entity, a field of one, or an enum of the version itself.
    private static func checkLockAllowances(_ schema: Schema, _ bag: inout DiagnosticBag) {
        for item in schema.migration.allowLocks {
            if let decl = schema.enumDecl(named: item.entity) {
                if item.field != nil {
                    bag.error(
                        "'allowLocks' names '\(item.spelled)': an enum's changes lock every table that stores it; name the enum, '\(decl.name)'",
                        at: item.location)
                }
                continue
            }
            guard let entity = schema.entity(named: item.entity) else {
                bag.error(
                    "'allowLocks' names '\(item.entity)', which is not an entity or enum of \(schema.fileName)"
                        + Suggestion.didYouMean(item.entity, in: schema.entities.map(\.name) + schema.enums.map(\.name)),
                    at: item.location)
                continue
            }
            if let field = item.field, entity.field(named: field) == nil {
                bag.error(
                    "'allowLocks' names '\(item.spelled)', but '\(entity.name)' has no field '\(field)' in \(schema.fileName)"
                        + Suggestion.didYouMean(field, in: entity.fields.map(\.name)), at: item.location)
            }
        }
    }

    private static func checkAgainstPrevious(_ schema: Schema, previous: Schema, _ bag: inout DiagnosticBag) {
        checkDeclaredColumnsUnchanged(schema, previous: previous, &bag)
        checkLockAllowances(schema, &bag)
        // Only for messages: most versions have none.
        func previousNames() -> [String] { previous.entities.map(\.name) }
        var renamedSources: [String: String] = [:]
        for entity in schema.entities {
            var sourceName = entity.name
            if let old = entity.renamedFrom {
                if previous.hasEntity(named: old) {
                    sourceName = old
                    if schema.entity(named: old) != nil {
                        bag.error("entity '\(entity.name)' is renamed from '\(old)', but '\(old)' still exists in this version", at: entity.location)
                    }
                    if let other = renamedSources[old] {
                        bag.error("'\(old)' is renamed twice: to '\(other)' and to '\(entity.name)'", at: entity.location)
                    }
                    renamedSources[old] = entity.name
                } else {
                    bag.error(
                        "entity '\(entity.name)' is renamed from '\(old)', which is not an entity of \(previous.fileName)"
                            + Suggestion.didYouMean(old, in: previousNames()), at: entity.location)
                    continue
                }
            }
            // The entity of the previous version is looked up only for renamed fields.
            guard entity.fields.contains(where: { $0.renamedFrom != nil }),
                let source = previous.entity(named: sourceName)
            else { continue }
            var fieldSources: [String: String] = [:]
            for field in entity.fields {
                guard let old = field.renamedFrom else { continue }
                if source.field(named: old) == nil {
                    bag.error(
                        "field '\(field.name)' is renamed from '\(old)', which is not a field of '\(source.name)' in \(previous.fileName)"
                            + Suggestion.didYouMean(old, in: source.fields.map(\.name)), at: field.location)
                } else if entity.field(named: old) != nil {
                    bag.error("field '\(field.name)' is renamed from '\(old)', but '\(old)' still exists in this version", at: field.location)
                } else if let other = fieldSources[old] {
                    bag.error("'\(old)' is renamed twice: to '\(other)' and to '\(field.name)'", at: field.location)
                } else {
                    fieldSources[old] = field.name
                }
            }
        }
        for item in schema.migration.allowDataLoss {
            if let decl = previous.enumDecl(named: item.entity) {
                if let name = item.field, decl.case(named: name) == nil {
                    bag.error(
                        "'allowDataLoss' names '\(item.spelled)', but enum '\(decl.name)' has no case '\(name)' in \(previous.fileName)"
                            + Suggestion.didYouMean(name, in: decl.cases.map(\.name)), at: item.location)
                }
                continue
            }
            if let decl = previous.valueType(named: item.entity), decl.isJSON {
                if let name = item.field, decl.member(named: name) == nil {
                    bag.error(
                        "'allowDataLoss' names '\(item.spelled)', but JSON value type '\(decl.name)' has no member '\(name)' in \(previous.fileName)"
                            + Suggestion.didYouMean(name, in: decl.members?.map(\.name) ?? []), at: item.location)
                } else if item.field == nil {
                    bag.error(
                        "'allowDataLoss' names '\(item.spelled)', a JSON value type: name its removed members ('\(decl.name).member')",
                        at: item.location)
                }
                continue
            }
            guard let entity = previous.entity(named: item.entity) else {
                bag.error(
                    "'allowDataLoss' names '\(item.entity)', which is not an entity or enum of \(previous.fileName)"
                        + Suggestion.didYouMean(item.entity, in: previousNames() + previous.enums.map(\.name)), at: item.location)
                continue
            }
            if let field = item.field, entity.field(named: field) == nil {
                bag.error(
                    "'allowDataLoss' names '\(item.spelled)', but '\(entity.name)' has no field '\(field)' in \(previous.fileName)"
                        + Suggestion.didYouMean(field, in: entity.fields.map(\.name)), at: item.location)
            }
        }
    }
}
