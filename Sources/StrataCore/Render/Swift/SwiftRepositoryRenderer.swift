import StrataRelease

/// Renders one database's `<Model>Repositories.swift` (`<Model>PostgresRepositories.swift`…): for
/// every entity, its conformance to the database's record protocol (binding and reading by
/// index) and the methods that differ per entity. Every other operation is runtime code (the
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
        // The client's types appear in PostgreSQL's record conformances (`PostgresBindings`) and in
        // the observations by a key that is not `id` (GRDB's `AsyncValueObservation`).
        let observesByKey = runtime.observes && schema.entities.contains { entity in
            let key = entity.primaryKeyFields
            return !(key.count == 1 && key[0].name == "id")
        }
        if runtime.recordsUseClient || observesByKey { writer.line("import \(runtime.clientModule)") }
        writer.line("import \(runtime.module)")
        if !schema.enums.isEmpty { writer.line() }
        for decl in schema.enums {
            writer.line("extension \(SwiftNames.identifier(decl.name)): \(runtime.valueProtocol) {}")
        }
        return String(writer.text.dropLast())
    }

    /// Everything generated for one entity.
    private func section(of entity: Entity, names: RepositoryNames) -> SwiftWriter {
        var writer = SwiftWriter()
        let rendering = EntityRendering(schema: schema, entity: entity, names: names)
        writer.line()
        writer.line("// MARK: - \(entity.name)")
        writer.line()
        SwiftRecordRenderer(rendering: rendering).renderConformance(to: runtime, into: &writer)
        EntityMethodsRenderer(rendering: rendering, runtime: runtime).render(into: &writer)
        return writer
    }
}

/// Renders `<Model>Records.swift`: what every database's code shares, the `StrataRecord`
/// conformance of each entity (its table, columns and key) and the `StrataEnumColumnValue`
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
            guard let unknown = decl.unknownCase else {
                writer.line("extension \(type): StrataEnumColumnValue {}")
                continue
            }
            writer.block("extension \(type): StrataEnumColumnValue") { w in
                w.line("/// A stored raw value that matches no case reads as `.\(unknown)`.")
                w.line("public static var strataUnknownCase: \(type)? { .\(SwiftNames.identifier(unknown)) }")
            }
        }
        for entity in schema.entities {
            writer.line()
            let rendering = EntityRendering(schema: schema, entity: entity, names: names)
            SwiftRecordRenderer(rendering: rendering).renderRecord(into: &writer)
            SwiftSearchRenderer(rendering: rendering).render(into: &writer)
        }
        writer.line()
        let api = StrataVersion.runtimeAPI
        writer.line("/// Generated for StrataRuntime API \(api) (Strata \(StrataVersion.current)): against a runtime of another API")
        writer.line("/// this does not compile; regenerate with the Strata release of the runtime in use.")
        writer.line("private enum GeneratedForStrataRuntimeAPI\(api): StrataRuntimeAPI\(api) {}")
        return writer.text
    }
}
