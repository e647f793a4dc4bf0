import StrataCore
import StrataCoreDataMapping

/// Maps one Core Data model version to a Strata version: entities flattened, keys chosen,
/// attributes typed, relationships turned into references, `hasMany` and join entities,
/// uniqueness constraints and indexes.
struct CoreDataVersionMapper {
    /// Choices of the command line.
    struct Options: Sendable {
        /// `--key Entity.attr`: the attribute that is an entity's primary key.
        var keys: [String: String] = [:]
        /// `--transformable-as-data`.
        var transformableAsData = false
    }

    /// Where a Strata field came from, for the checks between versions.
    struct Origin: Sendable {
        /// The Core Data property's renaming identifier.
        var renamingID: String?
        /// Where the property is.
        var location: SourceLocation
        /// The Core Data property's name.
        var property: String
    }

    /// The result of mapping a version.
    struct Mapped: Sendable {
        var entities: [ImportedEntity]
        var mapping: [CoreDataMapping.Entity]
        /// Per Strata entity, per field: where it came from (attributes and to-one relationships).
        var origins: [String: [String: Origin]]
        /// Per Strata entity: the Core Data entity's renaming identifier and location.
        var entityOrigins: [String: Origin]
        var diagnostics: [Diagnostic]
    }

    let model: CoreDataModel
    let options: Options
    private var bag = DiagnosticBag()
    private var entities: [ImportedEntity] = []
    private var mapping: [CoreDataMapping.Entity] = []
    private var origins: [String: [String: Origin]] = [:]
    private var entityOrigins: [String: Origin] = [:]
    /// Many-to-many pairs already given a join entity, by "Entity.relationship" of both sides.
    private var joined: Set<String> = []

    /// The name of the key Strata adds (the store's `Z_PK`) to an entity that has an attribute named
    /// `id` that cannot be its key: Core Data reserves `objectID` (`NSManagedObject.objectID`, which
    /// holds the same `Z_PK`), so no entity has an attribute of that name.
    static let generatedKeyName = "objectID"

    init(model: CoreDataModel, options: Options) {
        self.model = model
        self.options = options
    }

    /// Maps the version.
    static func map(_ model: CoreDataModel, options: Options) -> Mapped {
        var mapper = CoreDataVersionMapper(model: model, options: options)
        mapper.run()
        return Mapped(
            entities: CoreDataSQLNames.fitted(mapper.entities), mapping: mapper.mapping, origins: mapper.origins,
            entityOrigins: mapper.entityOrigins,
            diagnostics: mapper.bag.all)
    }

    // MARK: - Inheritance

    /// The chain of `entity`, root first; nil (with an error) for an unknown parent or a cycle.
    private mutating func chain(of entity: CoreDataEntity) -> [CoreDataEntity]? {
        var chain = [entity]
        var names: Set<String> = [entity.name]
        while let parentName = chain[0].parent {
            guard let parent = model.entity(named: parentName) else {
                bag.error(
                    "entity '\(chain[0].name)' has parent entity '\(parentName)', which is not an entity of the model",
                    at: chain[0].location)
                return nil
            }
            guard names.insert(parent.name).inserted else {
                bag.error("the parent entities of '\(entity.name)' form a cycle", at: entity.location)
                return nil
            }
            chain.insert(parent, at: 0)
        }
        return chain
    }

    private var concreteNames: Set<String> { Set(model.entities.filter { !$0.isAbstract }.map(\.name)) }

    private func lowerFirst(_ name: String) -> String { name.prefix(1).lowercased() + name.dropFirst() }
    private func upperFirst(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }

    // MARK: - Entities

    private mutating func run() {
        for ignored in model.ignored {
            bag.append(
                Diagnostic(.note, "\(ignored.what) is ignored: Strata schemas have no equivalent", at: ignored.location)
            )
        }
        for entity in model.entities {
            if entity.isAbstract {
                let subentities = model.entities.filter { sub in sub.parent == entity.name }.map(\.name)
                bag.append(
                    Diagnostic(
                        .note,
                        "abstract entity '\(entity.name)' gets no table: its properties are copied into \(subentities.isEmpty ? "no entity" : subentities.map { "'\($0)'" }.joined(separator: ", "))",
                        at: entity.location))
                continue
            }
            guard let chain = chain(of: entity) else { continue }
            if chain.count > 1 {
                bag.append(
                    Diagnostic(
                        .note,
                        "entity '\(entity.name)' inherits from '\(chain[chain.count - 2].name)': flattened, its table holds the inherited properties too",
                        at: entity.location))
            }
            mapEntity(entity, chain: chain)
        }
        for entity in model.entities where !entity.isAbstract {
            guard let chain = chain(of: entity) else { continue }
            mapToMany(entity, chain: chain)
        }
    }

    private mutating func mapEntity(_ entity: CoreDataEntity, chain: [CoreDataEntity]) {
        let attributes = chain.flatMap(\.attributes)
        let relationships = chain.flatMap(\.relationships)
        var result = ImportedEntity(name: entity.name)
        var fieldMapping: [CoreDataMapping.Field] = []
        var fieldOrigins: [String: Origin] = [:]
        entityOrigins[entity.name] = Origin(
            renamingID: entity.renamingID, location: entity.location, property: entity.name)

        // The primary key.
        var keyAttribute: String?
        if let chosen = options.keys[entity.name] {
            if let attribute = attributes.first(where: { $0.name == chosen }) {
                if attribute.isOptional {
                    bag.error(
                        "--key \(entity.name).\(chosen): the attribute is optional; a primary key must be required",
                        at: attribute.location)
                } else if !["UUID", "String", "Integer 16", "Integer 32", "Integer 64"].contains(attribute.type) {
                    bag.error(
                        "--key \(entity.name).\(chosen): a \(attribute.type) attribute cannot be a primary key; choose a UUID, String or integer one",
                        at: attribute.location)
                } else {
                    keyAttribute = chosen
                }
            } else {
                bag.error(
                    "--key \(entity.name).\(chosen): '\(entity.name)' has no attribute '\(chosen)'"
                        + Suggestion.didYouMean(chosen, in: attributes.map(\.name)), at: entity.location)
            }
        } else if let id = attributes.first(where: { $0.name == "id" }) {
            if id.type == "UUID" && !id.isOptional && !id.isTransient && !id.isDerived {
                keyAttribute = "id"
            }
        }
        if keyAttribute == nil {
            // Strata's own key (the store's Z_PK) is `id`, unless an attribute has that name.
            let names = Set(
                attributes.filter { !$0.isTransient && !$0.isDerived }.map(\.name)
                    + relationships.filter { !$0.isTransient }.map(\.name))
            var keyName = "id"
            if names.contains("id") {
                keyName = Self.generatedKeyName
                while names.contains(keyName) { keyName = "strata" + upperFirst(keyName) }
            }
            if let id = attributes.first(where: { $0.name == "id" && !$0.isTransient && !$0.isDerived }) {
                bag.append(
                    Diagnostic(
                        .note,
                        "attribute '\(entity.name).id' cannot be the primary key (\(id.isOptional ? "it is optional" : "it is \(id.type), not a required UUID")): it stays an ordinary field, and the key Strata adds (the store's Z_PK) is named '\(keyName)'; choose another key with --key \(entity.name).<attribute>",
                        at: id.location))
            }
            var key = ImportedField(name: keyName, type: "Int64")
            key.isAutoincrement = true
            if keyName != "id" { key.isPrimaryKey = true }
            result.fields.append(key)
            fieldMapping.append(.init(field: keyName, source: .primaryKey, property: nil))
        }

        // Attributes.
        for attribute in attributes {
            if attribute.isTransient || attribute.isDerived {
                bag.append(
                    Diagnostic(
                        .note,
                        "\(attribute.isTransient ? "transient" : "derived") attribute '\(entity.name).\(attribute.name)' is not stored: skipped",
                        at: attribute.location))
                continue
            }
            let type: String
            switch CoreDataAttributeTypes.strataType(
                of: attribute, entity: entity.name, transformableAsData: options.transformableAsData)
            {
            case .success(let found): type = found
            case .failure(let error):
                bag.append(contentsOf: error.diagnostics)
                continue
            }
            if attribute.type == "Transformable" {
                bag.append(
                    Diagnostic(
                        .note,
                        "Transformable attribute '\(entity.name).\(attribute.name)' becomes Data: the archived bytes",
                        at: attribute.location))
            }
            var field = ImportedField(name: attribute.name, type: type, isOptional: attribute.isOptional)
            switch CoreDataAttributeTypes.defaultValue(of: attribute, type: type, entity: entity.name) {
            case .success(let value):
                field.defaultValue = value.value
                if let note = value.note { bag.append(note) }
            case .failure(let error): bag.append(contentsOf: error.diagnostics)
            }
            if attribute.name == keyAttribute {
                field.defaultValue = nil
                if attribute.name != "id" { field.isPrimaryKey = true }
                result.fields.insert(field, at: 0)
                fieldMapping.insert(.init(field: field.name, source: .attribute, property: attribute.name), at: 0)
            } else {
                result.fields.append(field)
                fieldMapping.append(.init(field: field.name, source: .attribute, property: attribute.name))
            }
            fieldOrigins[field.name] = Origin(
                renamingID: attribute.renamingID, location: attribute.location, property: attribute.name)
            if attribute.isIndexed && attribute.name != keyAttribute {
                result.indexes.append(ImportedIndex(fields: [attribute.name], unique: false))
            }
        }

        // To-one relationships: references (one per concrete entity, for an abstract destination).
        for relationship in relationships where !relationship.isToMany {
            let targets = stored(relationship, in: entity)
            for (destination, inverse) in targets {
                if let inverse, !inverse.isToMany, (destination.name, inverse.name) < (entity.name, relationship.name) {
                    bag.append(
                        Diagnostic(
                            .note,
                            "one-to-one '\(entity.name).\(relationship.name)' is stored once, as the reference '\(destination.name).\(inverse.name)'",
                            at: relationship.location))
                    continue
                }
                // What deleting the destination does to this object is the inverse's delete rule.
                let rule = inverse?.deleteRule ?? relationship.deleteRule
                let name = sideName(of: relationship, for: destination)
                // Of several references, at most one is set: each is optional.
                var field = ImportedField(
                    name: name, type: destination.name, isOptional: relationship.isOptional || targets.count > 1)
                switch rule {
                case .nullify:
                    field.onDelete = "setNull"
                    field.isOptional = true
                case .cascade: field.onDelete = "cascade"
                case .deny: field.onDelete = "restrict"
                case .noAction: field.onDelete = nil
                }
                result.fields.append(field)
                fieldMapping.append(.init(field: field.name, source: .toOne, property: relationship.name))
                fieldOrigins[field.name] = Origin(
                    renamingID: relationship.renamingID, location: relationship.location, property: relationship.name)
            }
        }

        // Uniqueness constraints and fetch indexes, inherited ones included.
        let known = Set(result.fields.map(\.name))
        for constraint in chain.flatMap(\.uniquenessConstraints) {
            let fields = constraint.filter { name in
                if known.contains(name) { return true }
                bag.warning(
                    "uniqueness constraint of '\(entity.name)' names '\(name)', which is not a stored attribute or to-one relationship: left out",
                    at: entity.location)
                return false
            }
            if fields.isEmpty || (fields == [keyAttribute ?? "id"] && result.fields.first?.name == fields[0]) {
                continue
            }
            if fields.count == 1, let index = result.fields.firstIndex(where: { $0.name == fields[0] }) {
                result.fields[index].isUnique = true
            } else if !result.indexes.contains(ImportedIndex(fields: fields, unique: true)) {
                result.indexes.append(ImportedIndex(fields: fields, unique: true))
            }
        }
        for index in chain.flatMap(\.fetchIndexes) {
            let fields = index.filter { name in
                if known.contains(name) { return true }
                bag.warning(
                    "fetch index of '\(entity.name)' names '\(name)', which is not a stored attribute or to-one relationship: left out",
                    at: entity.location)
                return false
            }
            if !fields.isEmpty { result.indexes.append(ImportedIndex(fields: fields, unique: false)) }
        }
        result.indexes = deduplicated(result.indexes, entity: result)

        entities.append(result)
        mapping.append(
            CoreDataMapping.Entity(
                entity: entity.name, coreDataEntity: entity.name, coreDataRoot: chain.first?.name ?? entity.name,
                fields: fieldMapping, join: nil))
        origins[entity.name] = fieldOrigins
    }

    /// The indexes without repeats (a unique one wins), without those the key or a unique field gives.
    private func deduplicated(_ indexes: [ImportedIndex], entity: ImportedEntity) -> [ImportedIndex] {
        // The key is the first field.
        let covered = Set(
            entity.fields.enumerated().filter { $0.offset == 0 || $0.element.isUnique || $0.element.isPrimaryKey }.map {
                [$0.element.name]
            })
        var result: [ImportedIndex] = []
        for index in indexes where !covered.contains(index.fields) {
            if let existing = result.firstIndex(where: { $0.fields == index.fields }) {
                result[existing].unique = result[existing].unique || index.unique
            } else {
                result.append(index)
            }
        }
        return result
    }

    /// The destinations and inverses of a relationship that is stored: its destination, or, for an
    /// abstract destination, each concrete entity under it (each inherits the inverse); none (with
    /// a note) for a transient one, none (with an error) for an unknown destination.
    private mutating func stored(
        _ relationship: CoreDataRelationship, in entity: CoreDataEntity
    ) -> [(destination: CoreDataEntity, inverse: CoreDataRelationship?)] {
        if relationship.isTransient {
            bag.append(
                Diagnostic(
                    .note, "transient relationship '\(entity.name).\(relationship.name)' is not stored: skipped",
                    at: relationship.location))
            return []
        }
        return destinations(of: relationship, in: entity).map { destination in
            (destination, relationship.inverse.flatMap { inverse(named: $0, of: destination) })
        }
    }

    /// The relationship `name` of `entity`, declared by it or by a parent.
    private func inverse(named name: String, of entity: CoreDataEntity) -> CoreDataRelationship? {
        var current: CoreDataEntity? = entity
        var seen: Set<String> = []
        while let item = current, seen.insert(item.name).inserted {
            if let found = item.relationships.first(where: { $0.name == name }) { return found }
            current = item.parent.flatMap { model.entity(named: $0) }
        }
        return nil
    }

    /// The concrete entities under the abstract entity `name` (at any depth), in file order.
    private func concreteEntities(under name: String) -> [CoreDataEntity] {
        var names: Set<String> = [name]
        var changed = true
        while changed {
            changed = false
            for entity in model.entities where !names.contains(entity.name) && entity.parent.map(names.contains) == true
            {
                names.insert(entity.name)
                changed = true
            }
        }
        return model.entities.filter { !$0.isAbstract && $0.name != name && names.contains($0.name) }
    }

    /// The entities with a table a relationship leads to: its destination, or the concrete entities
    /// under an abstract destination (with a note); an error for an unknown destination.
    private mutating func destinations(of relationship: CoreDataRelationship, in entity: CoreDataEntity)
        -> [CoreDataEntity]
    {
        guard let destination = model.entity(named: relationship.destination) else {
            bag.error(
                "relationship '\(entity.name).\(relationship.name)' leads to '\(relationship.destination)', which is not an entity of the model",
                at: relationship.location)
            return []
        }
        guard destination.isAbstract else { return [destination] }
        let concrete = concreteEntities(under: destination.name)
        let what = "relationship '\(entity.name).\(relationship.name)' leads to abstract entity '\(destination.name)'"
        switch concrete.count {
        case 0:
            bag.warning(
                "\(what), which has no concrete subentity, so no object can be its destination: not imported",
                at: relationship.location)
        case 1:
            bag.append(
                Diagnostic(
                    .note, "\(what): its only concrete subentity '\(concrete[0].name)' is the destination",
                    at: relationship.location))
        default:
            let names = concrete.map { "'\($0.name)'" }.joined(separator: ", ")
            bag.append(
                Diagnostic(
                    .note,
                    "\(what): one \(relationship.isToMany ? "relationship" : "optional reference") per concrete subentity (\(names)), named '\(relationship.name)<Entity>'",
                    at: relationship.location))
        }
        return concrete
    }

    /// The name of the Strata side of `relationship` for the destination `destination`: the
    /// relationship's name, followed by the destination's when the relationship leads to an
    /// abstract entity with several concrete subentities.
    private func sideName(of relationship: CoreDataRelationship, for destination: CoreDataEntity) -> String {
        guard let declared = model.entity(named: relationship.destination), declared.isAbstract,
            concreteEntities(under: declared.name).count > 1
        else { return relationship.name }
        return relationship.name + upperFirst(destination.name)
    }

    // MARK: - To-many relationships

    private mutating func mapToMany(_ entity: CoreDataEntity, chain: [CoreDataEntity]) {
        for relationship in chain.flatMap(\.relationships) where relationship.isToMany {
            for (destination, inverse) in stored(relationship, in: entity) {
                mapToMany(entity, relationship: relationship, destination: destination, inverse: inverse)
            }
        }
    }

    private mutating func mapToMany(
        _ entity: CoreDataEntity, relationship: CoreDataRelationship, destination: CoreDataEntity,
        inverse: CoreDataRelationship?
    ) {
        guard let entityIndex = entities.firstIndex(where: { $0.name == entity.name }) else { return }
        if let inverse, !inverse.isToMany {
            // One-to-many: the destination references this entity.
            let leadsHere =
                inverse.destination == entity.name
                || (model.entity(named: inverse.destination)?.isAbstract == true
                    && concreteEntities(under: inverse.destination).contains { $0.name == entity.name })
            guard leadsHere else {
                bag.append(
                    Diagnostic(
                        .note,
                        "to-many '\(entity.name).\(relationship.name)' is inherited, but its inverse '\(destination.name).\(inverse.name)' references '\(inverse.destination)': no hasMany on '\(entity.name)'",
                        at: relationship.location))
                return
            }
            entities[entityIndex].hasMany.append(
                ImportedHasMany(
                    name: sideName(of: relationship, for: destination), entity: destination.name,
                    via: sideName(of: inverse, for: entity)))
            if relationship.isOrdered,
                let destinationIndex = entities.firstIndex(where: { $0.name == destination.name })
            {
                let position = inverse.name + "Position"
                var field = ImportedField(name: position, type: "Int64", defaultValue: "0")
                field.doc =
                    "The position of this object in \(entity.name).\(relationship.name) (an ordered relationship in Core Data)."
                entities[destinationIndex].fields.append(field)
                if let mappingIndex = mapping.firstIndex(where: { $0.entity == destination.name }) {
                    mapping[mappingIndex].fields.append(
                        .init(field: position, source: .order, property: inverse.name))
                }
                bag.append(
                    Diagnostic(
                        .note,
                        "ordered to-many '\(entity.name).\(relationship.name)' keeps its order in '\(destination.name).\(position)'",
                        at: relationship.location))
            }
            return
        }
        if let inverse, joined.contains("\(destination.name).\(inverse.name)") {
            return  // the other side made the join entity
        }
        makeJoin(
            entity: entity, entityIndex: entityIndex, relationship: relationship, destination: destination,
            inverse: inverse)
    }

    private mutating func makeJoin(
        entity: CoreDataEntity, entityIndex: Int, relationship: CoreDataRelationship, destination: CoreDataEntity,
        inverse: CoreDataRelationship?
    ) {
        joined.insert("\(entity.name).\(relationship.name)")
        let side = sideName(of: relationship, for: destination)
        var name = entity.name + upperFirst(side)
        while concreteNames.contains(name) || entities.contains(where: { $0.name == name }) { name += "Link" }
        let sourceField = lowerFirst(entity.name)
        var destinationField = lowerFirst(destination.name)
        if destinationField == sourceField { destinationField = relationship.name }
        if destinationField == sourceField { destinationField += "Destination" }
        var join = ImportedEntity(
            name: name,
            doc: "The pairs of Core Data's to-many relationship \(entity.name).\(relationship.name)"
                + (inverse.map { " (inverse \(destination.name).\($0.name))" } ?? "") + ".")
        var source = ImportedField(name: sourceField, type: entity.name)
        source.onDelete = "cascade"
        var target = ImportedField(name: destinationField, type: destination.name)
        target.onDelete = "cascade"
        join.fields = [source, target]
        join.primaryKey = [sourceField, destinationField]
        var fields: [CoreDataMapping.Field] = [
            .init(field: sourceField, source: .joinSource, property: relationship.name),
            .init(field: destinationField, source: .joinDestination, property: inverse?.name),
        ]
        let ordered = relationship.isOrdered || inverse?.isOrdered == true
        if ordered {
            var position = ImportedField(name: "position", type: "Int64", defaultValue: "0")
            position.doc = "The position of the pair in the ordered relationship."
            join.fields.append(position)
            fields.append(
                .init(
                    field: "position", source: .order,
                    property: relationship.isOrdered ? relationship.name : inverse?.name))
            bag.append(
                Diagnostic(
                    .note,
                    "ordered to-many '\(entity.name).\(relationship.name)' keeps its order in '\(name).position'",
                    at: relationship.location))
        }
        join.indexes = [ImportedIndex(fields: [destinationField], unique: false)]
        bag.append(
            Diagnostic(
                .note,
                (inverse == nil
                    ? "to-many '\(entity.name).\(relationship.name)' has no inverse"
                    : "many-to-many '\(entity.name).\(relationship.name)'")
                    + ": its pairs become join entity '\(name)' (primary key [\(sourceField), \(destinationField)])",
                at: relationship.location))
        // The relationship itself: the records linked through the join entity (a many-to-many
        // declared once), from each side.
        entities[entityIndex].hasMany.append(
            ImportedHasMany(name: side, entity: destination.name, via: sourceField, through: name))
        if let inverse, let destinationIndex = entities.firstIndex(where: { $0.name == destination.name }) {
            entities[destinationIndex].hasMany.append(
                ImportedHasMany(name: sideName(of: inverse, for: entity), entity: entity.name, via: destinationField, through: name))
        }
        entities.append(join)
        mapping.append(
            CoreDataMapping.Entity(
                entity: name, coreDataEntity: nil, coreDataRoot: nil, fields: fields,
                join: .init(
                    entity: entity.name, relationship: relationship.name, destination: destination.name,
                    inverse: inverse?.name, ordered: ordered)))
    }
}
