/// Renders `<Model>Repositories.swift`: for every entity, its column set (for type-safe filters
/// and sorts), its `StrataSQLiteRecord` conformance (table, key, binding and reading by index),
/// and the methods that differ per entity. Every other operation is runtime code
/// (`StrataRecordStore`, `StrataAccess`, `StrataRepository`).
struct SwiftRepositoryRenderer {
    let schema: Schema

    /// The whole file.
    func render() -> String {
        assemble(Parallel.map(sectionJobs()))
    }

    /// The jobs rendering each entity's part, in entity order: each depends on the model alone,
    /// so they can run concurrently (with other files' jobs too).
    func sectionJobs() -> [@Sendable () -> SwiftWriter] {
        let names = RepositoryNames(schema: schema)
        return schema.entities.map { entity in { section(of: entity, names: names) } }
    }

    /// The file, from the parts `sectionJobs()` rendered.
    func assemble(_ sections: [SwiftWriter]) -> String {
        var writer = SwiftWriter()
        writer.lines(FileHeader.lines(source: FileHeader.source(schema), comment: "//"))
        writer.line()
        writer.line("import Foundation")
        writer.line("import StrataSQLite")
        for decl in schema.enums {
            writer.line()
            let type = SwiftNames.identifier(decl.name)
            guard let unknown = decl.unknownCase else {
                writer.line("extension \(type): StrataEnumColumnValue, StrataSQLiteValue {}")
                continue
            }
            writer.block("extension \(type): StrataEnumColumnValue, StrataSQLiteValue") { w in
                w.line("/// A stored raw value that matches no case reads as `.\(unknown)`.")
                w.line("public static var strataUnknownCase: \(type)? { .\(SwiftNames.identifier(unknown)) }")
            }
        }
        for section in sections { writer.append(section) }
        return writer.text
    }

    /// Everything generated for one entity.
    private func section(of entity: Entity, names: RepositoryNames) -> SwiftWriter {
        var writer = SwiftWriter()
        let rendering = EntityRendering(schema: schema, entity: entity, names: names)
        writer.line()
        writer.line("// MARK: - \(entity.name)")
        writer.line()
        SwiftRecordRenderer(rendering: rendering).render(into: &writer)
        EntityMethodsRenderer(rendering: rendering).render(into: &writer)
        return writer
    }
}
