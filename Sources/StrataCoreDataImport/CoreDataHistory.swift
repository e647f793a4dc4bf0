import StrataCore


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

    /// `versions` with one name for each entity's generated key in every version: an entity that
    /// has an attribute `id` that cannot be the key in some version has its generated key named
    /// `objectID` there (``CoreDataVersionMapper/generatedKeyName``); the versions where it has no
    /// such attribute name their key the same, so that the key is one field through the history
    /// (rather than `id` becoming the attribute a later version adds).
    static func withOneGeneratedKeyName(_ versions: [Version]) -> [Version] {
        var names: [String: String] = [:]
        for version in versions {
            for entity in version.mapped.mapping where entity.join == nil {
                if let key = entity.fields.first, key.source == .primaryKey, key.field != "id" {
                    names[entity.entity] = key.field
                }
            }
        }
        guard !names.isEmpty else { return versions }
        var result = versions
        for versionIndex in result.indices {
            for (entityIndex, entity) in result[versionIndex].mapped.mapping.enumerated() {
                guard let name = names[entity.entity], let key = entity.fields.first, key.source == .primaryKey,
                    key.field == "id",
                    let imported = result[versionIndex].mapped.entities.firstIndex(where: { $0.name == entity.entity }),
                    !result[versionIndex].mapped.entities[imported].fields.contains(where: { $0.name == name }),
                    let field = result[versionIndex].mapped.entities[imported].fields.firstIndex(where: {
                        $0.name == "id" && $0.isAutoincrement
                    })
                else { continue }
                result[versionIndex].mapped.mapping[entityIndex].fields[0].field = name
                result[versionIndex].mapped.entities[imported].fields[field].name = name
                result[versionIndex].mapped.entities[imported].fields[field].isPrimaryKey = true
            }
        }
        return result
    }

    /// The version files, and the diagnostics of the checks between versions.
    static func schemas(model: String, source: String, versions: [Version], allowNewRequiredToOne: Bool = false)
        -> ([ImportedSchema], [Diagnostic])
    {
        var bag = DiagnosticBag()
        var schemas: [ImportedSchema] = []
        for (offset, version) in versions.enumerated() {
            var schema = ImportedSchema(
                model: model, version: offset + 1,
                header: ["Imported by 'strata import coredata' from \(source), version '\(version.model.name)'."],
                entities: version.mapped.entities, allowDataLoss: [], allowDataLossComment: nil)
            if offset > 0 {
                compare(
                    &schema, version: version, previous: versions[offset - 1],
                    allowNewRequiredToOne: allowNewRequiredToOne, &bag)
            }
            schemas.append(schema)
        }
        return (schemas, bag.all)
    }

    private static func compare(
        _ schema: inout ImportedSchema, version: Version, previous: Version, allowNewRequiredToOne: Bool,
        _ bag: inout DiagnosticBag
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
            compareToOnes(
                entity: name, old: old.name, version: version, previous: previous, allowed: allowNewRequiredToOne,
                &bag)
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
            // Relationships are checked on the Core Data model (compareToOnes): a required to-one
            // may be stored on the other side, or as an optional reference (Nullify).
            let isRelationship = version.mapped.mapping.first { $0.entity == entity.name }?.fields.contains {
                $0.field == field.name && $0.source == .toOne
            }
            guard let origin, !field.isOptional, field.defaultValue == nil, !field.isAutoincrement,
                isRelationship != true
            else { continue }
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

    /// A required to-one relationship that is new in `version`, or was optional (or to-many)
    /// before, is an error at its XML line: existing objects have no destination for it. Checked on
    /// the Core Data relationships, inherited ones included, since the reference may be stored on
    /// the other side of a one-to-one, or be optional (a Nullify delete rule).
    private static func compareToOnes(
        entity: String, old: String, version: Version, previous: Version, allowed: Bool, _ bag: inout DiagnosticBag
    ) {
        guard let current = version.model.entity(named: entity), let earlier = previous.model.entity(named: old)
        else { return }
        let before = relationships(of: earlier, in: previous.model)
        for relationship in relationships(of: current, in: version.model)
        where !relationship.isToMany && !relationship.isOptional && !relationship.isTransient {
            let source =
                before.first { $0.name == relationship.name }
                ?? relationship.renamingID.flatMap { id in before.first { $0.name == id } }
            if let source, !source.isToMany, !source.isOptional { continue }
            let what =
                source == nil
                ? "'\(entity).\(relationship.name)' is new in version '\(version.model.name)' and a required to-one relationship, so existing objects have no destination for it"
                : "'\(entity).\(relationship.name)' becomes a required to-one relationship in version '\(version.model.name)', so objects without a destination have none"
            let field = version.mapped.entities.first { $0.name == entity }?.fields.first {
                $0.name == relationship.name
            }
            if allowed, field?.isOptional != false {
                bag.warning(
                    "\(what): imported as Core Data stores it, the reference optional (--allow-new-required-to-one)",
                    at: relationship.location)
            } else {
                bag.error(
                    "\(what) (Core Data's lightweight migration would refuse it too; the app needed a mapping model): make it optional in Xcode, or import with --allow-new-required-to-one to keep existing objects without one",
                    at: relationship.location)
            }
        }
    }

    /// The relationships of `entity`, its parents' included.
    private static func relationships(of entity: CoreDataEntity, in model: CoreDataModel) -> [CoreDataRelationship] {
        var result = entity.relationships
        var seen: Set<String> = [entity.name]
        var parent = entity.parent.flatMap { model.entity(named: $0) }
        while let item = parent, seen.insert(item.name).inserted {
            result = item.relationships + result
            parent = item.parent.flatMap { model.entity(named: $0) }
        }
        return result
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
