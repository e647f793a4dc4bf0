import StrataStorage

/// Joins the mapped versions of a Core Data model into a Strata history: renaming identifiers
/// become `renamedFrom`, what lightweight migration dropped silently becomes
/// `migration.allowDataLoss`, and what it would have refused (a required property added or made
/// required without a default) is an error at its XML line.
enum CoreDataHistory {
    /// One mapped Core Data version.
    struct Version {
        var model: CoreDataModel
        var mapped: CoreDataVersionMapper.Mapped
    }

    /// The version files, and the diagnostics of the checks between versions.
    static func schemas(model: String, source: String, versions: [Version]) -> ([ImportedSchema], [Diagnostic]) {
        var bag = DiagnosticBag()
        var schemas: [ImportedSchema] = []
        for (offset, version) in versions.enumerated() {
            var schema = ImportedSchema(
                model: model, version: offset + 1,
                header: ["Imported by 'strata import coredata' from \(source), version '\(version.model.name)'."],
                entities: version.mapped.entities, allowDataLoss: [], allowDataLossComment: nil)
            if offset > 0 {
                compare(&schema, version: version, previous: versions[offset - 1], &bag)
            }
            schemas.append(schema)
        }
        return (schemas, bag.all)
    }

    private static func compare(
        _ schema: inout ImportedSchema, version: Version, previous: Version, _ bag: inout DiagnosticBag
    ) {
        let before = previous.mapped.entities
        var kept: Set<String> = []
        for index in schema.entities.indices {
            let name = schema.entities[index].name
            let entityRename = renameSource(
                of: name, origin: version.mapped.entityOrigins[name],
                previous: { old in before.first { $0.name == old } },
                stillExists: { schema.entity(named: $0) != nil }, &bag,
                warning: {
                    "the renaming identifier '\($0)' of entity '\(name)' names no entity of version '\(previous.model.name)': '\(name)' is imported as a new entity"
                })
            schema.entities[index].renamedFrom = entityRename.renamedFrom
            guard let old = entityRename.source else { continue }
            kept.insert(old.name)
            compareFields(&schema.entities[index], old: old, version: version, previous: previous, &bag)
            for field in old.fields
            where schema.entities[index].field(named: field.name) == nil
                && !schema.entities[index].fields.contains(where: { $0.renamedFrom == field.name })
            {
                schema.allowDataLoss.append("\(old.name).\(field.name)")
            }
        }
        for entity in before where !kept.contains(entity.name) {
            schema.allowDataLoss.append(entity.name)
        }
        if !schema.allowDataLoss.isEmpty {
            schema.allowDataLossComment =
                "Core Data's lightweight migration from '\(previous.model.name)' to '\(version.model.name)' dropped these without asking."
        }
    }

    private static func compareFields(
        _ entity: inout ImportedEntity, old: ImportedEntity, version: Version, previous: Version,
        _ bag: inout DiagnosticBag
    ) {
        let origins = version.mapped.origins[entity.name] ?? [:]
        for index in entity.fields.indices {
            let field = entity.fields[index]
            let origin = origins[field.name]
            let fields = entity.fields
            let fieldRename = renameSource(
                of: field.name, origin: origin, previous: { old.field(named: $0) },
                stillExists: { name in fields.contains { $0.name == name } }, &bag,
                warning: {
                    "the renaming identifier '\($0)' of '\(entity.name).\(field.name)' names no property of '\(old.name)' in version '\(previous.model.name)': imported as a new field"
                })
            entity.fields[index].renamedFrom = fieldRename.renamedFrom
            let oldField = fieldRename.source
            guard let origin, !field.isOptional, field.defaultValue == nil, !field.isAutoincrement else { continue }
            if oldField == nil {
                bag.error(
                    "'\(entity.name).\(field.name)' is new in version '\(version.model.name)' and required without a default value, so existing objects have no value for it (Core Data's lightweight migration would refuse it too): give it a default value or make it optional in Xcode",
                    at: origin.location)
            } else if oldField?.isOptional == true {
                bag.error(
                    "'\(entity.name).\(field.name)' becomes required in version '\(version.model.name)' without a default value, so objects where it is nil have no value for it (Core Data's lightweight migration would refuse it too): give it a default value in Xcode",
                    at: origin.location)
            }
        }
    }

    /// What `name` was in the previous version: itself, or what its renaming identifier names
    /// there (then `renamedFrom`), when that no longer exists; a warning when the identifier names
    /// nothing there.
    private static func renameSource<T>(
        of name: String, origin: CoreDataVersionMapper.Origin?, previous: (String) -> T?, stillExists: (String) -> Bool,
        _ bag: inout DiagnosticBag, warning: (String) -> String
    ) -> (source: T?, renamedFrom: String?) {
        if let same = previous(name) { return (same, nil) }
        guard let origin, let renamed = origin.renamingID, renamed != name else { return (nil, nil) }
        if let source = previous(renamed), !stillExists(renamed) { return (source, renamed) }
        bag.warning(warning(renamed), at: origin.location)
        return (nil, nil)
    }
}
