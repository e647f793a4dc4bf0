import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// How `strata import coredata` reads a `contents` file: its size limit before parsing, its
/// declared encoding, no DTD and no entity, parser errors in words, duplicate names at their line
/// of `contents`, and no staging path in any message. Nothing is written on an error.
@Suite struct CoreDataContentsTests {
    /// A `.xcdatamodel` folder holding `contents` (bytes), in a new temporary folder that also
    /// serves as the working directory.
    static func model(_ contents: Data) throws -> (root: URL, model: String, contents: String) {
        let root = try TestPaths.temporaryFolder()
        let model = root.appendingPathComponent("M.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        let contentsPath = model.appendingPathComponent("contents")
        try contents.write(to: contentsPath)
        return (root, model.path, contentsPath.path)
    }

    static func xml(_ entities: String, declaration: String = #"<?xml version="1.0" encoding="UTF-8"?>"#) -> String {
        """
        \(declaration)
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        \(entities)
        </model>

        """
    }

    static let note = """
        <entity name="Note" syncable="YES">
            <attribute name="id" attributeType="UUID" usesScalarValueType="NO"/>
            <attribute name="title" attributeType="String" defaultValueString="Caf\u{E9}"/>
        </entity>
        """

    /// Runs `strata import coredata` on the model; asserts that nothing was written.
    static func importing(_ model: (root: URL, model: String, contents: String)) throws -> CLI.Result {
        let result = try CLI.strata(["import", "coredata", model.model, "--model", "M"], in: model.root)
        if result.status != 0 {
            #expect(!FileManager.default.fileExists(atPath: model.root.appendingPathComponent("Schemas").path))
        }
        return result
    }

    @Test func aWellFormed25MBFileGetsTheSizeLimitAtOnce() throws {
        var entities = ""
        var index = 0
        while entities.utf8.count < 25 * 1_048_576 {
            entities += """
                <entity name="E\(index)" syncable="YES"><attribute name="id" attributeType="UUID"/>\
                <attribute name="name\(index)" attributeType="String" optional="YES"/>\
                <attribute name="count" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>\
                <attribute name="when" attributeType="Date" optional="YES"/></entity>

                """
            index += 1
        }
        let model = try Self.model(Data(Self.xml(entities).utf8))
        let start = ContinuousClock.now
        let result = try Self.importing(model)
        #expect(ContinuousClock.now - start < .seconds(3))
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("M.xcdatamodel/contents:1:1: error: the Core Data model file is 25."),
            "\(result.stderr)")
        #expect(result.stderr.contains("larger than the 4 MB Strata imports"), "\(result.stderr)")
        #expect(!result.stderr.contains("XML parser error"))
    }

    @Test func theDeclaredEncodingIsHonoured() throws {
        let text = Self.xml(Self.note, declaration: #"<?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?>"#)
        let latin1 = try #require(text.data(using: .isoLatin1))
        #expect(latin1.contains(0xE9))
        let model = try Self.model(latin1)
        let result = try Self.importing(model)
        #expect(result.status == 0, "\(result.stderr)")
        let yaml = try String(
            contentsOf: model.root.appendingPathComponent("Schemas/M/v1.yaml"), encoding: .utf8)
        #expect(yaml.contains("Café"), "\(yaml)")
        #expect(!yaml.contains("\u{FFFD}"))
    }

    @Test func latin1BytesWithoutADeclarationAreLocated() throws {
        let text = Self.xml(Self.note, declaration: #"<?xml version="1.0"?>"#)
        let model = try Self.model(try #require(text.data(using: .isoLatin1)))
        let result = try Self.importing(model)
        #expect(result.status == 1, "\(result.stderr)")
        // Line 5: the declaration, <model>, <entity>, the id attribute, then the title's default.
        #expect(result.stderr.contains("M.xcdatamodel/contents:5:"), "\(result.stderr)")
        #expect(result.stderr.contains("is not valid UTF-8"), "\(result.stderr)")
        let unknown = try Self.importing(
            try Self.model(Data(Self.xml(Self.note, declaration: #"<?xml version="1.0" encoding="EBCDIC"?>"#).utf8)))
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("contents:1:31: error: the XML declaration names the encoding 'EBCDIC'"), "\(unknown.stderr)")
    }

    @Test func entitiesAreRefusedInWordsAtTheirLine() throws {
        let external = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE model [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <model><entity name="A"><attribute name="id" attributeType="UUID" defaultValueString="&x;"/></entity></model>
            """
        let refused = try Self.importing(try Self.model(Data(external.utf8)))
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("contents:2:1: error: a document type declaration (<!DOCTYPE …>) is not allowed"),
            "\(refused.stderr)")
        #expect(!refused.stderr.contains("root:"), "no file was read: \(refused.stderr)")
        let undeclared = try Self.importing(
            try Self.model(
                Data(Self.xml(#"<entity name="A"><attribute name="id" attributeType="UUID" defaultValueString="&x;"/></entity>"#).utf8)))
        #expect(undeclared.status == 1)
        #expect(undeclared.stderr.contains("contents:3:"), "\(undeclared.stderr)")
        #expect(
            undeclared.stderr.contains("malformed XML: a broken entity reference"),
            "\(undeclared.stderr)")
        #expect(!undeclared.stderr.contains("XML parser error"))
    }

    @Test func duplicateNamesAreErrorsAtTheirLineOfContents() throws {
        let twice = Self.xml(
            Self.note + "\n" + Self.note
                + """

                <entity name="Other" syncable="YES">
                    <attribute name="id" attributeType="UUID"/>
                    <attribute name="id" attributeType="String"/>
                    <relationship name="id" destinationEntity="Note" maxCount="1"/>
                </entity>
                """)
        let model = try Self.model(Data(twice.utf8))
        let result = try Self.importing(model)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "M.xcdatamodel/contents:7:1: error: a second entity named 'Note' (the first is at line 3): entity names must be unique in a model"
            ), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "M.xcdatamodel/contents:13:5: error: a second property named 'id' in entity 'Other' (the first is at line 12)"
            ), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "M.xcdatamodel/contents:14:5: error: a second property named 'id' in entity 'Other' (the first is at line 12)"
            ), "\(result.stderr)")
        #expect(!result.stderr.contains("v1.yaml"), "\(result.stderr)")
    }

    @Test func lintMessagesNeverShowTheStagingFolder() throws {
        let schemas = try TestPaths.temporaryFolder().appendingPathComponent("Schemas").path
        let huge = ImportedSchema(
            model: "M", version: 1, header: [String(repeating: "x", count: 1_100_000)],
            entities: [ImportedEntity(name: "A", fields: [ImportedField(name: "id", type: "UUID")])])
        do {
            _ = try ImportedModelWriter.write(model: "M", versions: [huge], schemas: schemas)
            Issue.record("a version file over the limit was written")
        } catch {
            guard case .problems(let problems) = error else { throw error }
            let messages = problems.map(\.message).joined(separator: "\n")
            #expect(!messages.contains(".strata-import-"), "\(messages)")
            #expect(messages.contains("\(schemas)/M/v1.yaml"), "\(messages)")
        }
        #expect(!FileManager.default.fileExists(atPath: schemas))
    }
}
