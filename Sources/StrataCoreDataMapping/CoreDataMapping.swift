/// The mapping `strata import coredata` used, written next to the schemas as
/// `coredata-mapping.json`: for each Strata version, which Core Data version it came from and
/// where each entity's and field's values live in a Core Data store (what moving a store's rows
/// needs).
public struct CoreDataMapping: Codable, Equatable, Sendable {
    /// The file's name in the model folder.
    public static let fileName = "coredata-mapping.json"

    /// The Strata model.
    public var model: String
    /// The Core Data model's file name (`MyTODO.xcdatamodeld`).
    public var source: String
    /// One per Strata version, oldest first.
    public var versions: [Version]

    /// Creates a mapping.
    public init(model: String, source: String, versions: [Version]) {
        self.model = model
        self.source = source
        self.versions = versions
    }

    /// One Strata version.
    public struct Version: Codable, Equatable, Sendable {
        /// Creates a version mapping.
        public init(version: Int, coreDataVersion: String, entities: [Entity], coreDataModel: Model? = nil) {
            self.version = version
            self.coreDataVersion = coreDataVersion
            self.entities = entities
            self.coreDataModel = coreDataModel
        }

        /// The Strata version number.
        public var version: Int
        /// The Core Data version's name (`MyTODO 2`).
        public var coreDataVersion: String
        /// The Strata entities, in schema order.
        public var entities: [Entity]
        /// The Core Data model of this version as a store holds it (every stored entity, abstract
        /// ones included, attribute and relationship): what recognising a store's version needs.
        /// Absent from mappings written before it was added; then the version is recognised from
        /// ``entities`` alone.
        public var coreDataModel: Model?
    }

    /// A Strata entity: a Core Data entity (flattened), or a join entity of a to-many relationship.
    public struct Entity: Codable, Equatable, Sendable {
        /// Creates an entity mapping.
        public init(
            entity: String, table: String? = nil, coreDataEntity: String?, coreDataRoot: String?, fields: [Field],
            join: Join?
        ) {
            self.entity = entity
            self.table = table
            self.coreDataEntity = coreDataEntity
            self.coreDataRoot = coreDataRoot
            self.fields = fields
            self.join = join
        }

        /// The Strata entity.
        public var entity: String
        /// The entity's SQL table (filled in once the schema is checked).
        public var table: String?
        /// The Core Data entity, for an entity.
        public var coreDataEntity: String?
        /// The root of its inheritance chain: the entity whose `Z<ROOT>` table holds the rows.
        public var coreDataRoot: String?
        /// The fields, in schema order.
        public var fields: [Field]
        /// For a join entity: the relationship whose pairs it holds.
        public var join: Join?
    }

    /// Where a field's values come from.
    public struct Field: Codable, Equatable, Sendable {
        /// What holds the values.
        public enum Source: String, Codable, Sendable {
            /// The object's `Z_PK` (a generated key).
            case primaryKey
            /// An attribute (`Z<ATTRIBUTE>`).
            case attribute
            /// A to-one relationship: the destination's `Z_PK` (or its key).
            case toOne
            /// The position of the object in an ordered to-many relationship.
            case order
            /// A join entity's side: the source or destination object of a pair.
            case joinSource
            /// The destination object of a pair.
            case joinDestination
        }

        /// The Strata field.
        public var field: String
        /// What holds its values.
        public var source: Source
        /// The Core Data property (attribute or relationship); nil for `primaryKey`.
        public var property: String?
        /// The field's SQL column (filled in once the schema is checked).
        public var column: String?
        /// The field's schema type, without `?` (an entity's name for a reference).
        public var type: String?

        /// Creates a field mapping.
        public init(field: String, source: Source, property: String?, column: String? = nil, type: String? = nil) {
            self.field = field
            self.source = source
            self.property = property
            self.column = column
            self.type = type
        }
    }

    /// The relationship of a join entity.
    public struct Join: Codable, Equatable, Sendable {
        /// The Core Data entity the relationship belongs to.
        public var entity: String
        /// The to-many relationship.
        public var relationship: String
        /// Its destination entity.
        public var destination: String
        /// Its inverse (many-to-many), if any.
        public var inverse: String?
        /// True when the relationship (or its inverse) is ordered.
        public var ordered: Bool

        /// Creates a join mapping.
        public init(entity: String, relationship: String, destination: String, inverse: String?, ordered: Bool) {
            self.entity = entity
            self.relationship = relationship
            self.destination = destination
            self.inverse = inverse
            self.ordered = ordered
        }
    }
}
