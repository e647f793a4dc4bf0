import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// The JSON Schemas editors use for `vN.yaml` and `strata.yaml` (`Docs/JSONSchema/`) describe
/// exactly what the parser accepts: the same keys in every mapping, every valid file valid, every
/// file with an unknown key invalid.
@Suite struct JSONSchemaTests {
    typealias Value = JSONSchemaValidator.Value

    static let folder = TestPaths.packageRoot.appendingPathComponent("Docs/JSONSchema")
    static let version = folder.appendingPathComponent("strata-version.schema.json")
    static let config = folder.appendingPathComponent("strata-config.schema.json")

    /// The keys of the object schema at `path` (a `$ref` or a `oneOf` form that is an object is followed).
    static func keys(_ schema: Value, _ path: [String]) -> [String] {
        var current: Value? = schema
        for part in path { current = current?[part] }
        if case .array(let forms)? = current?["oneOf"] {
            current = forms.first { $0["properties"] != nil }
        }
        guard case .object(let properties)? = current?["properties"] else { return [] }
        return properties.map(\.0).sorted()
    }

    /// Every object schema with `properties` in `value`, by path.
    static func objectSchemas(_ value: Value, at path: String = "$") -> [(path: String, schema: Value)] {
        switch value {
        case .object(let members):
            let own: [(String, Value)] =
                value["properties"] != nil && value["type"] == .string("object") ? [(path, value)] : []
            return own + members.flatMap { objectSchemas($0.1, at: "\(path)/\($0.0)") }
        case .array(let items):
            return items.enumerated().flatMap { objectSchemas($0.element, at: "\(path)[\($0.offset)]") }
        default:
            return []
        }
    }

    @Test func theVersionSchemaHasTheParsersKeysInEveryMapping() throws {
        let schema = try JSONSchemaValidator(contentsOf: Self.version).schema
        let expected: [(path: [String], keys: [String])] = [
            ([], SchemaKeys.topLevel),
            (["definitions", "enum"], SchemaKeys.enumeration),
            (["definitions", "entity"], SchemaKeys.entity),
            (["definitions", "field"], SchemaKeys.field),
            (["definitions", "index"], SchemaKeys.index),
            (["definitions", "search"], SchemaKeys.search),
            (["definitions", "entity", "properties", "hasMany", "additionalProperties"], SchemaKeys.hasMany),
            (["definitions", "migration"], SchemaKeys.migration),
            (["definitions", "dialectSQLMapping"], SchemaKeys.dialectSQL),
            (["definitions", "valueType"], SchemaKeys.valueType),
            (["definitions", "jsonMember"], SchemaKeys.jsonMember),
        ]
        for (path, keys) in expected {
            #expect(Self.keys(schema, path) == keys.sorted(), "keys of \(path.joined(separator: "/"))")
        }
        // Every mapping the schema describes is one of those above, and closed: a key it does not
        // list is invalid, as the parser reports it.
        let objects = Self.objectSchemas(schema)
        #expect(objects.count == expected.count, "\(objects.map(\.path))")
        for object in objects {
            #expect(object.schema["additionalProperties"] == .bool(false), "\(object.path) must not allow other keys")
        }
    }

    @Test func theConfigSchemaHasTheParsersKeys() throws {
        let schema = try JSONSchemaValidator(contentsOf: Self.config).schema
        #expect(Self.keys(schema, []) == StrataConfig.keys.sorted())
        #expect(schema["additionalProperties"] == .bool(false))
    }

    /// Every version file of a valid model in the repository.
    static func validVersionFiles() -> [URL] {
        let roots = [
            "Schemas", "Tests/Fixtures/Models", "Tests/GeneratedRepositoryTests/Schemas", "Tests/MyTODOV1/Schemas",
            "Tests/Consumer/Schemas", "Benchmarks/Schemas", "Tests/StrataSQLTests/Fixtures",
        ]
        return roots.flatMap { root -> [URL] in
            let folder = TestPaths.packageRoot.appendingPathComponent(root)
            return TestPaths.files(under: folder).filter {
                StrataConfig.isVersionFileName(($0 as NSString).lastPathComponent)
            }
            .map { folder.appendingPathComponent($0) }
        }
    }

    @Test func everyValidVersionFileValidates() throws {
        let validator = try JSONSchemaValidator(contentsOf: Self.version)
        let files = Self.validVersionFiles()
        #expect(files.count >= 10)
        for file in files {
            let problems = validator.problems(try Value.yaml(String(contentsOf: file, encoding: .utf8)))
            #expect(problems.isEmpty, "\(file.path): \(problems)")
        }
    }

    @Test func everyBadSchemaWithAnUnknownKeyIsInvalid() throws {
        let validator = try JSONSchemaValidator(contentsOf: Self.version)
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: TestPaths.bad.path).sorted() {
            let folder = TestPaths.bad.appendingPathComponent(name)
            guard
                let expected = try? String(contentsOf: folder.appendingPathComponent("expected.txt"), encoding: .utf8),
                expected.contains(": error: unknown key '")
            else { continue }
            let keyed = expected.split(separator: "\n").filter { $0.contains(": error: unknown key '") }
            for line in keyed {
                let file = folder.appendingPathComponent(String(line.prefix { $0 != ":" }))
                let key = line.split(separator: "'")[1]
                let problems = validator.problems(try Value.yaml(String(contentsOf: file, encoding: .utf8)))
                #expect(problems.contains { $0.contains("key '\(key)' is not allowed") }, "\(name): \(problems)")
                checked += 1
            }
        }
        #expect(checked >= 3)
    }

    @Test func aKeyTheParserRejectsIsInvalidEverywhereAndTheParserAcceptsEverySchemaKey() throws {
        let validator = try JSONSchemaValidator(contentsOf: Self.version)
        let valid = """
            model: M
            version: 2
            naming: verbatim
            enums:
              Color: { type: String, cases: [red, blue], unknown: red, doc: Colours. }
            entities:
              List:
                doc: A list.
                table: lists
                renamedFrom: Lists
                primaryKey: [id]
                fields:
                  id: { type: Int64, primaryKey: true, autoincrement: true, unique: true, column: list_id, doc: The key. }
                  name: { type: String, default: "", renamedFrom: title, transform: { sql: "''", sqlite: "''", postgres: "''" } }
                indexes:
                  - [name]
                  - { fields: [name], unique: true, name: list_name_key }
                hasMany:
                  items: { entity: Item, via: list }
              Item:
                fields:
                  id: UUID
                  list: { type: List, onDelete: cascade }
                  color: Color
            migration:
              allowDataLoss: [Old]
              before: "SELECT 1"
              after: { sqlite: "SELECT 1", postgres: "SELECT 1" }
            """
        #expect(validator.problems(try Value.yaml(valid)).isEmpty)
        // Every key of the file above is one the parser knows (it may still report what needs v1).
        let folder = try TestPaths.temporaryFolder().appendingPathComponent("M")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try valid.replacingOccurrences(of: "version: 2", with: "version: 1").write(
            to: folder.appendingPathComponent("v1.yaml"), atomically: true, encoding: .utf8)
        let plan = Workspace.plan(schemas: folder.deletingLastPathComponent().path, output: "", render: false)
        #expect(!plan.diagnostics.contains { $0.message.contains("unknown key") }, "\(plan.diagnostics)")

        for (original, misspelled) in [
            ("naming: verbatim", "nameing: verbatim"), ("unknown: red", "unknwon: red"),
            ("table: lists", "tabel: lists"),
            ("column: list_id", "colum: list_id"), ("unique: true, name:", "unique: true, nam:"),
            ("via: list", "by: list"),
            ("before: \"SELECT 1\"", "befor: \"SELECT 1\""), ("postgres: \"''\"", "postgresql: \"''\""),
        ] {
            #expect(valid.contains(original))
            let problems = validator.problems(
                try Value.yaml(valid.replacingOccurrences(of: original, with: misspelled)))
            #expect(!problems.isEmpty, "\(misspelled) is accepted by the JSON Schema")
        }
    }

    @Test func strataYAMLFilesValidateAndAnUnknownKeyDoesNot() throws {
        let validator = try JSONSchemaValidator(contentsOf: Self.config)
        for path in ["Sources/MyTODO/strata.yaml", "Tests/Consumer/Sources/Notebook/strata.yaml"] {
            let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(path), encoding: .utf8)
            #expect(validator.problems(try Value.yaml(text)).isEmpty, "\(path)")
            #expect((try? StrataConfig(parsing: text)) != nil)
        }
        #expect(validator.problems(try Value.yaml("schemas: [a, b]")).isEmpty)
        #expect(!validator.problems(try Value.yaml("schema: a")).isEmpty)
        #expect(!validator.problems(try Value.yaml("schemas: []")).isEmpty)
        #expect((try? StrataConfig(parsing: "schema: a")) == nil)
        // databases: sqlite alone by default; a list, or one name; an unknown one is refused by both.
        #expect(validator.problems(try Value.yaml("schemas: a\ndatabases: [sqlite, postgres]")).isEmpty)
        #expect(validator.problems(try Value.yaml("schemas: a\ndatabases: postgres")).isEmpty)
        #expect(!validator.problems(try Value.yaml("schemas: a\ndatabases: [mysql]")).isEmpty)
        #expect(validator.problems(try Value.yaml("schemas: a\naccess: internal")).isEmpty)
        #expect(!validator.problems(try Value.yaml("schemas: a\naccess: private")).isEmpty)
        #expect(try StrataConfig(parsing: "schemas: a").databases == ["sqlite"])
        #expect(try StrataConfig(parsing: "schemas: a\ndatabases: [postgres, sqlite]").databases == ["sqlite", "postgres"])
        #expect(try StrataConfig(parsing: "schemas: a\ndatabases:\n  - postgres").databases == ["postgres"])
        #expect(throws: StrataConfig.Problem(line: 2, column: 13, message: "unknown database 'mysql'; the databases are 'sqlite' and 'postgres'")) {
            try StrataConfig(parsing: "schemas: a\ndatabases: [mysql]")
        }
    }
}
