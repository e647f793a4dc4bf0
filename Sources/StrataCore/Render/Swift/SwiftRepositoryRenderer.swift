import StrataRelease

/// Renders one database's `<Model>Repositories.swift` (`<Model>PostgresRepositories.swift`…): for
/// every entity, what the database adds to its record conformance (PostgreSQL's `PostgresRecord`)
/// and the methods that differ per entity. Every other operation is runtime code (the
/// runtime's store protocol, access and repository).
struct SwiftRepositoryRenderer {
    let schema: Schema
    let runtime: SwiftRuntime
    /// The command the generated header names.
    let regeneration: Regeneration

    /// The whole file: ``header()`` and every entity's part.
    func render() -> String {
        var writer = SwiftWriter()
        writer.line(header())
        for section in Parallel.map(sectionJobs()) { writer.append(section) }
        return writer.text
    }

    /// The jobs rendering each entity's part, in entity order: each depends on the model alone,
    /// so they can run concurrently, and the file can be written part by part as they finish
    /// (``Generator`` does, so that a model of thousands of entities never holds the file whole).
    func sectionJobs() -> [@Sendable () -> SwiftWriter] {
        let names = RepositoryNames(schema: schema)
        return schema.entities.map { entity in { [self] in section(of: entity, names: names) } }
    }

    /// What comes before the entities' parts: the generated header, the imports and the enums'
    /// conformances, without its last newline.
    func header() -> String {
        var writer = SwiftWriter()
        writer.lines(FileHeader.lines(source: FileHeader.source(schema), comment: "//", regeneration: regeneration))
        writer.line()
        writer.line("import Foundation")
        // The client's types appear in the observations by a key that is not `id` (GRDB's
        // `AsyncValueObservation`).
        let observesByKey = runtime.observes && schema.entities.contains { entity in
            let key = entity.primaryKeyFields
            return !(key.count == 1 && key[0].name == "id")
        }
        if observesByKey { writer.line("import \(runtime.clientModule)") }
        writer.line("import \(runtime.module)")
        return String(writer.text.dropLast())
    }

    /// Everything generated for one entity.
    private func section(of entity: Entity, names: RepositoryNames) -> SwiftWriter {
        var writer = SwiftWriter()
        let rendering = EntityRendering(schema: schema, entity: entity, names: names)
        writer.line()
        writer.line("// MARK: - \(entity.name)")
        SwiftRecordRenderer(rendering: rendering).renderConformance(to: runtime, into: &writer)
        EntityMethodsRenderer(rendering: rendering, runtime: runtime).render(into: &writer)
        return writer
    }
}

/// Renders `<Model>Records.swift`: what every database's code shares, the `StrataRecord`
/// conformance of each entity (its table, columns and key, how its columns are read and bound),
/// the `StrataRawColumnValue` conformance of each value type, and the `StrataEnumColumnValue`
/// conformance of each enum (its `unknown` case).
struct SwiftRecordsRenderer {
    let schema: Schema
    /// The command the generated header names.
    let regeneration: Regeneration

    func render() -> String {
        let names = RepositoryNames(schema: schema)
        var writer = SwiftWriter()
        writer.lines(FileHeader.lines(source: FileHeader.source(schema), comment: "//", regeneration: regeneration))
        writer.line()
        writer.line("import Foundation")
        writer.line("import StrataRuntime")
        for decl in schema.enums {
            writer.line()
            let type = SwiftNames.identifier(decl.name)
            if schema.isHeldInJSON(decl.name) {
                writer.line("extension \(type): StrataJSONCodable {}")
            }
            guard let unknown = decl.unknownCase else {
                writer.line("extension \(type): StrataEnumColumnValue {}")
                continue
            }
            writer.block("extension \(type): StrataEnumColumnValue") { w in
                w.line("/// A stored raw value that matches no case reads as `.\(unknown)`.")
                w.line("public static var strataUnknownCase: \(type)? { .\(SwiftNames.identifier(unknown)) }")
            }
        }
        for decl in schema.valueTypes {
            writer.line()
            if decl.isJSON {
                SwiftJSONTypeRenderer(schema: schema, decl: decl).renderConformance(into: &writer)
                continue
            }
            for protocols in Self.valueProtocols(storedAs: decl.storage) {
                writer.line("extension \(SwiftNames.identifier(decl.name)): \(protocols.joined(separator: ", ")) {}")
            }
            if schema.isHeldInJSON(decl.name) {
                writer.line("extension \(SwiftNames.identifier(decl.name)): StrataJSONCodable {}")
            }
        }
        let elementTypes = Self.arrayElementTypes(of: schema)
        if !elementTypes.isEmpty {
            writer.line()
            for name in elementTypes {
                writer.line("extension \(SwiftNames.identifier(name)): StrataArrayElement {}")
            }
        }
        for entity in schema.entities {
            writer.line()
            let rendering = EntityRendering(schema: schema, entity: entity, names: names)
            SwiftRecordRenderer(rendering: rendering).renderRecord(into: &writer)
            SwiftSearchRenderer(rendering: rendering).render(into: &writer)
            Self.renderInclusions(of: rendering, into: &writer)
        }
        writer.line()
        let api = StrataVersion.runtimeAPI
        writer.line("/// Generated for StrataRuntime API \(api) (Strata \(StrataVersion.current)): against a runtime of another API")
        writer.line("/// this does not compile; regenerate with the Strata release of the runtime in use.")
        writer.line("private enum GeneratedForStrataRuntimeAPI\(api): StrataRuntimeAPI\(api) {}")
        return writer.text
    }

    /// The enums and value types that array fields hold (`[Genre]`), in declaration order: each
    /// conforms to `StrataArrayElement`, stored as its raw value.
    static func arrayElementTypes(of schema: Schema) -> [String] {
        var used: Set<String> = []
        for entity in schema.entities {
            for field in entity.fields {
                if case .array(.enumeration(let name)) = field.type { used.insert(name) }
                if case .array(.value(let name)) = field.type { used.insert(name) }
            }
        }
        return (schema.enums.map(\.name) + schema.valueTypes.map(\.name)).filter(used.contains)
    }

    /// What a value type stored as `storage` conforms to, in the extensions that declare it: it
    /// is read and bound as its raw value (and can be a key when the stored values can), then
    /// compared and sorted when the stored values are.
    static func valueProtocols(storedAs storage: ScalarType) -> [[String]] {
        let ordered = ["StrataComparableColumnValue", "StrataSortableColumnValue"]
        switch storage {
        case .string, .int, .int64, .int32, .int16: return [["StrataRawColumnValue", "StrataKeyReferenceValue"], ordered]
        case .double, .float, .date: return [["StrataRawColumnValue"], ordered]
        case .uuid, .url: return [["StrataRawColumnValue", "StrataKeyReferenceValue"], ["StrataSortableColumnValue"]]
        case .bool, .data: return [["StrataRawColumnValue"], ["StrataSortableColumnValue"]]
        case .decimal, .json: return [["StrataRawColumnValue"]]
        }
    }

    /// `.orders`, `.tags`: each `hasMany` as what `fetchAll(including:)` takes, so that
    /// `db.customers.fetchAll(including: .orders)` reads each customer with its orders.
    static func renderInclusions(of r: EntityRendering, into writer: inout SwiftWriter) {
        guard r.entity.singlePrimaryKey != nil else { return }
        for (relation, target, via) in r.toMany {
            let child = r.names.record(target)
            writer.line()
            writer.block("extension StrataIncludedChildren where Record == \(r.record), Child == \(child)") { w in
                w.line("/// Each `\(r.entity.name)` with its `\(relation.name)`: the `\(target.name)` records whose `\(via.name)` refers to it.")
                w.line("public static var \(SwiftNames.identifier(relation.name)): Self { .all(\(child).self, via: \\.\(SwiftNames.identifier(via.name))) }")
            }
        }
        for (relation, target, join, from, to) in r.manyToMany {
            let child = r.names.record(target)
            writer.line()
            writer.block("extension StrataIncludedChildren where Record == \(r.record), Child == \(child)") { w in
                w.line("/// Each `\(r.entity.name)` with its `\(relation.name)`: the `\(target.name)` records `\(join.name)` links to it.")
                w.block("public static var \(SwiftNames.identifier(relation.name)): Self") { w in
                    w.line(".all(\(child).self, through: \(r.names.record(join)).self, from: \\.\(SwiftNames.identifier(from.name)), to: \\.\(SwiftNames.identifier(to.name)))")
                }
            }
        }
    }
}
