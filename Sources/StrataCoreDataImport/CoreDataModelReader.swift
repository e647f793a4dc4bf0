import Foundation
import StrataCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads the `contents` XML of one `.xcdatamodel` into a ``CoreDataModel``.
enum CoreDataModelReader {
    /// The model, or the diagnostics that stop it (malformed XML, a missing attribute); never both.
    static func read(contents text: String, path: String, versionName: String) -> Result<
        CoreDataModel, DiagnosticsError
    > {
        let source = XMLSourceText(text, path: path)
        let parser = XMLParser(data: Data(text.utf8))
        let delegate = Delegate(source: source, parser: parser, versionName: versionName)
        parser.delegate = delegate
        parser.shouldResolveExternalEntities = false
        if !parser.parse() || delegate.parseError != nil {
            let (line, column, message) =
                delegate.parseError ?? (parser.lineNumber, parser.columnNumber, "malformed XML")
            return .failure(
                DiagnosticsError([Diagnostic(.error, message, at: source.location(line: line, column: column))]))
        }
        guard delegate.sawModel else {
            return .failure(
                DiagnosticsError([
                    Diagnostic(.error, "not a Core Data model: the root element is not <model>", at: .file(path))
                ]))
        }
        if !delegate.bag.all.isEmpty { return .failure(DiagnosticsError(delegate.bag.sorted)) }
        return .success(
            CoreDataModel(name: versionName, path: path, entities: delegate.entities, ignored: delegate.ignored))
    }

    /// A message for a parser error: its code is libxml2's (`xmlParserErrors`) on every platform,
    /// and Foundation's descriptions of them say little.
    static func describe(_ error: (any Error)?) -> String {
        let code = (error as NSError?)?.code ?? -1
        let what: String
        switch code {
        case 3, 4: what = "expected an element"
        case 5: what = "extra content after the root element"
        case 9: what = "a character that XML does not allow"
        case 14, 22, 23, 26, 27: what = "a broken entity reference ('&' must be written '&amp;')"
        case 38: what = "'<' in an attribute value (write '&lt;')"
        case 39, 40, 41: what = "a broken attribute (every value needs quotes)"
        case 42: what = "an attribute is given twice"
        case 65, 68: what = "a broken tag"
        case 73: what = "a tag is not closed with '>'"
        case 74, 76: what = "an end tag does not match its start tag"
        case 77: what = "the document ends before every element is closed"
        case 1: what = "the XML parser gave up on an input too large or too deeply nested for it"
        case 2: what = "the XML parser ran out of memory"
        case 28, 29, 30, 104:
            what = "a reference to an external or parameter entity, which Strata refuses (a Core Data model declares no entities)"
        case 31, 32, 79, 81: what = "an encoding the XML parser cannot read: use UTF-8"
        case 89, 90: what = "an entity that refers to itself or expands without bound, which Strata refuses"
        case 110: what = "a name longer than the XML parser allows"
        default: what = "the XML parser stopped here (libxml2 error \(code))"
        }
        return "malformed XML: \(what)"
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        let source: XMLSourceText
        unowned let parser: XMLParser
        let versionName: String
        var bag = DiagnosticBag()
        var entities: [CoreDataEntity] = []
        var ignored: [CoreDataModel.Ignored] = []
        var sawModel = false
        var parseError: (Int, Int, String)?
        private var stack: [String] = []
        private var current: CoreDataEntity?
        private var constraint: [String]?
        private var index: [String]?

        init(source: XMLSourceText, parser: XMLParser, versionName: String) {
            self.source = source
            self.parser = parser
            self.versionName = versionName
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if self.parseError == nil {
                self.parseError = (parser.lineNumber, parser.columnNumber, CoreDataModelReader.describe(parseError))
            }
        }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            defer { stack.append(name) }
            let start = source.elementStart(name, line: parser.lineNumber, column: parser.columnNumber)
            let location = source.location(ofOffset: start)
            let parent = stack.last ?? ""
            switch (parent, name) {
            case ("", "model"):
                sawModel = true
            case ("model", "entity"):
                guard let entityName = required("name", of: "entity", attributes, at: location) else { return }
                current = CoreDataEntity(
                    name: entityName, isAbstract: attributes["isAbstract"] == "YES", parent: attributes["parentEntity"],
                    renamingID: attributes["elementID"], attributes: [], relationships: [], uniquenessConstraints: [],
                    fetchIndexes: [], location: location)
            case ("entity", "attribute"):
                guard let attributeName = required("name", of: "attribute", attributes, at: location),
                    let type = required("attributeType", of: "attribute '\(attributeName)'", attributes, at: location)
                else { return }
                let attribute = CoreDataAttribute(
                    name: attributeName, type: type, isOptional: attributes["optional"] == "YES",
                    isTransient: attributes["transient"] == "YES", isDerived: attributes["derived"] == "YES",
                    isIndexed: attributes["indexed"] == "YES",
                    defaultValue: attributes["defaultValueString"].map {
                        ($0, source.attributeValue("defaultValueString", inTagAt: start))
                    },
                    defaultDateTimeInterval: attributes["defaultDateTimeInterval"].map {
                        ($0, source.attributeValue("defaultDateTimeInterval", inTagAt: start))
                    },
                    renamingID: attributes["elementID"], location: location,
                    typeLocation: source.attributeValue("attributeType", inTagAt: start))
                if isDuplicate(attributeName, at: location) { return }
                current?.attributes.append(attribute)
            case ("entity", "relationship"):
                guard let relationshipName = required("name", of: "relationship", attributes, at: location),
                    let destination = required(
                        "destinationEntity", of: "relationship '\(relationshipName)'", attributes, at: location)
                else { return }
                if isDuplicate(relationshipName, at: location) { return }
                let ruleText = attributes["deletionRule"] ?? "Nullify"
                guard let rule = CoreDataRelationship.DeleteRule(rawValue: ruleText) else {
                    bag.error(
                        "unknown deletion rule '\(ruleText)' of relationship '\(relationshipName)'; expected Nullify, Cascade, Deny or No Action",
                        at: source.attributeValue("deletionRule", inTagAt: start))
                    return
                }
                current?.relationships.append(
                    CoreDataRelationship(
                        name: relationshipName, destination: destination, inverse: attributes["inverseName"],
                        isToMany: attributes["toMany"] == "YES", isOrdered: attributes["ordered"] == "YES",
                        isOptional: attributes["optional"] == "YES", isTransient: attributes["transient"] == "YES",
                        deleteRule: rule, renamingID: attributes["elementID"], location: location))
            case ("entity", "fetchedProperty"):
                ignored.append(
                    .init(
                        what: "fetched property '\(current?.name ?? "?").\(attributes["name"] ?? "?")'",
                        location: location))
            case ("model", "fetchRequest"):
                ignored.append(.init(what: "fetch request '\(attributes["name"] ?? "?")'", location: location))
            case ("model", "configuration"):
                ignored.append(.init(what: "configuration '\(attributes["name"] ?? "?")'", location: location))
            case ("uniquenessConstraints", "uniquenessConstraint"):
                constraint = []
            case ("uniquenessConstraint", "constraint"):
                if let value = attributes["value"] { constraint?.append(value) }
            case ("entity", "fetchIndex"):
                index = []
            case ("fetchIndex", "fetchIndexElement"):
                if let property = attributes["property"] { index?.append(property) }
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
            switch name {
            case "entity":
                if let entity = current {
                    if let first = entities.first(where: { $0.name == entity.name }) {
                        bag.error(
                            "a second entity named '\(entity.name)' (the first is at line \(first.location.line)): entity names must be unique in a model",
                            at: entity.location)
                    } else {
                        entities.append(entity)
                    }
                }
                current = nil
            case "uniquenessConstraint":
                if let constraint, !constraint.isEmpty { current?.uniquenessConstraints.append(constraint) }
                constraint = nil
            case "fetchIndex":
                if let index, !index.isEmpty { current?.fetchIndexes.append(index) }
                index = nil
            default:
                break
            }
        }

        /// True, with an error at `location`, when the current entity already has a property `name`.
        private func isDuplicate(_ name: String, at location: SourceLocation) -> Bool {
            let properties = (current?.attributes.map { ($0.name, $0.location) } ?? [])
                + (current?.relationships.map { ($0.name, $0.location) } ?? [])
            guard let first = properties.first(where: { $0.0 == name }) else { return false }
            bag.error(
                "a second property named '\(name)' in entity '\(current?.name ?? "?")' (the first is at line \(first.1.line))",
                at: location)
            return true
        }

        private func required(
            _ key: String, of what: String, _ attributes: [String: String], at location: SourceLocation
        ) -> String? {
            if let value = attributes[key], !value.isEmpty { return value }
            bag.error("\(what) has no '\(key)'", at: location)
            return nil
        }
    }
}
