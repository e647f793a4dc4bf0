import StrataCore
import StrataCoreDataMapping

extension CoreDataMapping.Model {
    /// The stored part of a Core Data model version: what a store written by this version holds.
    init(_ model: CoreDataModel) {
        self.init(
            entities: model.entities.map { entity in
                CoreDataMapping.ModelEntity(
                    name: entity.name, parent: entity.parent, isAbstract: entity.isAbstract,
                    attributes: entity.attributes.filter { !$0.isTransient }.map {
                        CoreDataMapping.ModelAttribute(name: $0.name, type: $0.type)
                    },
                    relationships: entity.relationships.filter { !$0.isTransient }.map {
                        CoreDataMapping.ModelRelationship(
                            name: $0.name, destination: $0.destination, inverse: $0.inverse, isToMany: $0.isToMany,
                            isOrdered: $0.isOrdered)
                    },
                    indexes: entity.attributes.filter { $0.isIndexed && !$0.isTransient }.map { [$0.name] }
                        + entity.fetchIndexes + entity.uniquenessConstraints)
            })
    }
}
