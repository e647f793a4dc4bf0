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

    private static func compare(_ schema: inout ImportedSchema, version: Version, previous: Version, _ bag: inout DiagnosticBag) {
        let before = previous.mapped.entities
        var kept: Set<String> = []
        for index in schema.entities.indices {
            let name = schema.entities[index].name
            var old = before.first { $0.name == name }
            if old == nil, let origin = version.mapped.entityOrigins[name], let renamed = origin.renamingID, renamed != name {
                if let source = before.first(where: { $0.name == renamed }), schema.entity(named: renamed) == nil {
                    schema.entities[index].renamedFrom = renamed
                    old = source
                } else {
                    bag.warning(
                        "the renaming identifier '\(renamed)' of entity '\(name)' names no entity of version '\(previous.model.name)': '\(name)' is imported as a new entity",
                        at: origin.location)
                }
            }
            guard let old else { continue }
            kept.insert(old.name)
            compareFields(&schema.entities[index], old: old, version: version, previous: previous, &bag)
            for field in old.fields
            where schema.entities[index].field(named: field.name) == nil && !schema.entities[index].fields.contains(where: { $0.renamedFrom == field.name }) {
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
        _ entity: inout ImportedEntity, old: ImportedEntity, version: Version, previous: Version, _ bag: inout DiagnosticBag
    ) {
        let origins = version.mapped.origins[entity.name] ?? [:]
        for index in entity.fields.indices {
            let field = entity.fields[index]
            let origin = origins[field.name]
            var oldField = old.field(named: field.name)
            if oldField == nil, let origin, let renamed = origin.renamingID, renamed != field.name {
                if let source = old.field(named: renamed), entity.field(named: renamed) == nil {
                    entity.fields[index].renamedFrom = renamed
                    oldField = source
                } else {
                    bag.warning(
                        "the renaming identifier '\(renamed)' of '\(entity.name).\(field.name)' names no property of '\(old.name)' in version '\(previous.model.name)': imported as a new field",
                        at: origin.location)
                }
            }
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
}
