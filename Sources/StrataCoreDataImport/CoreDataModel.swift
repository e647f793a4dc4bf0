import StrataCore

/// One version of a Core Data model, as Xcode writes it in `<Version>.xcdatamodel/contents`.
///
/// Only what the importer maps is kept; every element carries the place it was read from, so that
/// what cannot be mapped is reported at its XML line.
public struct CoreDataModel: Sendable, Equatable {
    /// The version's name: its folder's name without `.xcdatamodel` (`MyTODO 2`).
    public var name: String
    /// The `contents` file it was read from.
    public var path: String
    /// The entities, in file order.
    public var entities: [CoreDataEntity]
    /// Fetch requests, fetched properties and configurations: read only to be ignored with a note.
    public var ignored: [Ignored]

    /// Something of the model the importer does not map.
    public struct Ignored: Sendable, Equatable {
        /// What it is, in words (`fetch request 'AllItems'`).
        public var what: String
        /// Where it is.
        public var location: SourceLocation
    }

    /// The entity named `name`.
    public func entity(named name: String) -> CoreDataEntity? {
        entities.first { $0.name == name }
    }
}

/// An `<entity>` element.
public struct CoreDataEntity: Sendable, Equatable {
    /// `name`.
    public var name: String
    /// `isAbstract="YES"`.
    public var isAbstract: Bool
    /// `parentEntity`.
    public var parent: String?
    /// `elementID`: the renaming identifier.
    public var renamingID: String?
    /// The attributes, in file order.
    public var attributes: [CoreDataAttribute]
    /// The relationships, in file order.
    public var relationships: [CoreDataRelationship]
    /// `<uniquenessConstraint>`s: each a list of property names.
    public var uniquenessConstraints: [[String]]
    /// `<fetchIndex>`es: each a list of property names.
    public var fetchIndexes: [[String]]
    /// Where the element starts.
    public var location: SourceLocation
}

/// An `<attribute>` element.
public struct CoreDataAttribute: Sendable, Equatable {
    /// `name`.
    public var name: String
    /// `attributeType` (`Integer 16`, `String`, `Transformable`, …).
    public var type: String
    /// `optional="YES"`.
    public var isOptional: Bool
    /// `transient="YES"`.
    public var isTransient: Bool
    /// `derived="YES"`.
    public var isDerived: Bool
    /// `indexed="YES"`.
    public var isIndexed: Bool
    /// `defaultValueString`, with where its value starts.
    public var defaultValue: (text: String, location: SourceLocation)?
    /// `defaultDateTimeInterval` (a `Date` default, in seconds since 2001), with where its value starts.
    public var defaultDateTimeInterval: (text: String, location: SourceLocation)?
    /// `elementID`: the renaming identifier.
    public var renamingID: String?
    /// Where the element starts.
    public var location: SourceLocation
    /// Where the `attributeType` value starts.
    public var typeLocation: SourceLocation

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.type == rhs.type && lhs.isOptional == rhs.isOptional
            && lhs.isTransient == rhs.isTransient && lhs.isDerived == rhs.isDerived && lhs.isIndexed == rhs.isIndexed
            && lhs.defaultValue?.text == rhs.defaultValue?.text
            && lhs.defaultDateTimeInterval?.text == rhs.defaultDateTimeInterval?.text
            && lhs.renamingID == rhs.renamingID && lhs.location == rhs.location
    }
}

/// A `<relationship>` element.
public struct CoreDataRelationship: Sendable, Equatable {
    /// How deleting the source object treats the destination (`deletionRule`).
    public enum DeleteRule: String, Sendable, Equatable {
        case nullify = "Nullify"
        case cascade = "Cascade"
        case deny = "Deny"
        case noAction = "No Action"
    }

    /// `name`.
    public var name: String
    /// `destinationEntity`.
    public var destination: String
    /// `inverseName`.
    public var inverse: String?
    /// `toMany="YES"`.
    public var isToMany: Bool
    /// `ordered="YES"`.
    public var isOrdered: Bool
    /// `optional="YES"`.
    public var isOptional: Bool
    /// `transient="YES"`.
    public var isTransient: Bool
    /// `deletionRule` (Nullify when absent, as in Core Data).
    public var deleteRule: DeleteRule
    /// `elementID`: the renaming identifier.
    public var renamingID: String?
    /// Where the element starts.
    public var location: SourceLocation
}
