/// Renders an entity's `StrataSearchable` conformance, for an entity that declares `search:`:
/// the searched table, columns and language, which give its records `search(_:where:limit:)`
/// and the `$0.matches(_:)` filter.
struct SwiftSearchRenderer {
    let rendering: EntityRendering

    func render(into writer: inout SwiftWriter) {
        let entity = rendering.entity
        guard let search = entity.search else { return }
        let columns = search.fields.compactMap { entity.field(named: $0) }.map { SwiftNames.stringLiteral($0.column) }
        writer.line()
        writer.line("/// `\(entity.name)` is searched over \(search.fields.map { "`\($0)`" }.joined(separator: ", ")) (\(search.language.rawValue)).")
        writer.block("extension \(rendering.record): StrataSearchable") { w in
            w.line(
                "public static let strataSearch = StrataSearch(table: \(SwiftNames.stringLiteral(entity.table)), columns: [\(columns.joined(separator: ", "))], language: \(SwiftNames.stringLiteral(search.language.rawValue)))"
            )
        }
    }
}
