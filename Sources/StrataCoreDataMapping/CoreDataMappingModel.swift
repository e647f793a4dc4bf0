extension CoreDataMapping {
    /// One Core Data model version as its SQLite store holds it: the stored entities (abstract ones
    /// too), their attributes with their Core Data types, their relationships and their indexes,
    /// in the model's order. Transient properties are left out.
    public struct Model: Codable, Equatable, Sendable {
        /// The entities, in the model file's order.
        public var entities: [ModelEntity]

        /// Creates a model description.
        public init(entities: [ModelEntity]) { self.entities = entities }
    }

    /// A Core Data entity of a ``Model``.
    public struct ModelEntity: Codable, Equatable, Sendable {
        /// The entity's name.
        public var name: String
        /// Its parent entity, if any.
        public var parent: String?
        /// True for an abstract entity (no rows of its own).
        public var isAbstract: Bool
        /// The stored attributes it declares (not the inherited ones).
        public var attributes: [ModelAttribute]
        /// The stored relationships it declares (not the inherited ones).
        public var relationships: [ModelRelationship]
        /// Its indexes, each a list of property names: `indexed` attributes, fetch indexes and
        /// uniqueness constraints.
        public var indexes: [[String]]

        /// Creates an entity description.
        public init(
            name: String, parent: String?, isAbstract: Bool, attributes: [ModelAttribute],
            relationships: [ModelRelationship], indexes: [[String]]
        ) {
            self.name = name
            self.parent = parent
            self.isAbstract = isAbstract
            self.attributes = attributes
            self.relationships = relationships
            self.indexes = indexes
        }
    }

    /// A stored attribute of a ``ModelEntity``.
    public struct ModelAttribute: Codable, Equatable, Sendable {
        /// The attribute's name.
        public var name: String
        /// Its Core Data type (`Integer 16`, `String`, `Date`, `Transformable`, …).
        public var type: String

        /// Creates an attribute description.
        public init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }

    /// A stored relationship of a ``ModelEntity``.
    public struct ModelRelationship: Codable, Equatable, Sendable {
        /// The relationship's name.
        public var name: String
        /// Its destination entity.
        public var destination: String
        /// Its inverse relationship (on the destination), if any.
        public var inverse: String?
        /// True for a to-many relationship.
        public var isToMany: Bool
        /// True for an ordered to-many relationship.
        public var isOrdered: Bool

        /// Creates a relationship description.
        public init(name: String, destination: String, inverse: String?, isToMany: Bool, isOrdered: Bool) {
            self.name = name
            self.destination = destination
            self.inverse = inverse
            self.isToMany = isToMany
            self.isOrdered = isOrdered
        }
    }
}
