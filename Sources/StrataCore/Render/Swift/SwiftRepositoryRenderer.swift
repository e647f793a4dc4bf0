/// Renders `<Model>Repositories.swift`: for every entity, its column set (for type-safe filters
/// and sorts), its statements (SQL text and column coding by index), its access on one
/// connection and its repository on the database.
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
        writer.line("import StrataRuntime")
        if !schema.enums.isEmpty {
            writer.line()
            for decl in schema.enums {
                writer.line("extension \(SwiftNames.identifier(decl.name)): StrataEnumColumnValue {}")
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
        renderColumns(rendering, into: &writer)
        writer.line()
        renderStatements(rendering, into: &writer)
        writer.line()
        EntityAccessRenderer(rendering: rendering).render(into: &writer)
        writer.line()
        EntityRepositoryRenderer(rendering: rendering).render(into: &writer)
        return writer
    }

    private func renderColumns(_ r: EntityRendering, into writer: inout SwiftWriter) {
        writer.line("/// The columns of `\(r.entity.name)` for filters and sorts: `{ $0.\(exampleField(r)) == … }`,")
        writer.line(
            "/// `{ [$0.\(exampleField(r)).ascending] }`. Comparing a column with a value of another type does not compile."
        )
        writer.block("public struct \(r.columns): Sendable") { w in
            for field in r.entity.fields {
                w.line("/// The `\(field.name)` column (`\(field.column)`).")
                w.lines(RepositoryNames.lintExemptions(member: field.name))
                let type = "StrataColumn<\(r.record), \(r.coding.columnType(of: field))>"
                let literal = SwiftNames.stringLiteral(RepositorySQL.quoted(field.column))
                w.line("public let \(SwiftNames.identifier(field.name)) = \(type)(sql: \(literal))")
            }
            w.line()
            w.line("/// The column set.")
            w.line("public init() {}")
        }
    }

    private func exampleField(_ r: EntityRendering) -> String {
        SwiftNames.identifier(r.entity.fields.first?.name ?? "id")
    }

    private func renderStatements(_ r: EntityRendering, into writer: inout SwiftWriter) {
        let sql = r.sql
        writer.line("/// The SQL of `\(r.entity.name)` and how its columns are bound and read, by index.")
        writer.block("enum \(r.statements)") { w in
            var constants = [("table", sql.table), ("selection", sql.selection), ("insert", sql.insert)]
            if r.hasKey {
                constants += [("upsert", sql.upsert), ("find", sql.find), ("delete", sql.delete)]
                if let update = sql.update { constants.append(("update", update)) }
            }
            for (name, text) in constants {
                w.constant("static let \(name)", literal: SwiftNames.stringLiteral(text), depth: 1)
            }
            w.line()
            w.line("/// Binds every column of `record` to parameters 1… in field order.")
            w.block("static func bind(_ record: \(r.record), _ statement: GRDB.SQLiteStatement) throws") { w in
                for (offset, field) in r.entity.fields.enumerated() {
                    let value = "record.\(SwiftNames.identifier(field.name))"
                    w.lines(r.coding.bindLines(field, value: value, index: offset + 1))
                }
            }
            if r.hasKey {
                w.line()
                w.line("/// Binds a primary key to parameters 1….")
                w.declaration(
                    "static func bindKey",
                    parameters: r.keyFields.enumerated().map { offset, field in
                        "_ \(r.keyName(offset)): \(r.coding.baseType(of: field))"
                    } + ["_ statement: GRDB.SQLiteStatement"],
                    suffix: " throws",
                    depth: 1
                ) { w in
                    for (offset, field) in r.keyFields.enumerated() {
                        w.lines(r.coding.bindLines(field, value: r.keyName(offset), index: offset + 1, optional: false))
                    }
                }
            }
            w.line()
            w.line("/// The record of the current row of a statement that selects `selection`.")
            w.block("static func decode(_ statement: GRDB.SQLiteStatement) throws -> \(r.record)") { w in
                w.line("\(r.record)(")
                let arguments = r.entity.fields.enumerated().map { offset, field in
                    let comma = offset == r.entity.fields.count - 1 ? "" : ","
                    return
                        "    \(SwiftNames.argumentLabel(field.name)): \(r.coding.readExpression(field, index: offset))\(comma)"
                }
                w.lines(arguments)
                w.line(")")
            }
            w.line()
            w.line("/// `SELECT selection` of the rows matching `filter`, sorted by `order`.")
            w.declaration(
                "static func select",
                parameters: [
                    "where filter: \(r.filterType)", "orderBy order: \(r.orderType)", "limit: Int? = nil",
                    "offset: Int? = nil",
                ],
                suffix: " -> StrataSQL",
                depth: 1
            ) { w in
                w.line("let columns = \(r.columns)()")
                w.line("return StrataSQL.select(")
                w.line("    selection,")
                w.line("    from: table,")
                w.line("    where: filter?(columns),")
                w.line("    orderBy: order?(columns) ?? [],")
                w.line("    limit: limit,")
                w.line("    offset: offset")
                w.line(")")
            }
        }
    }
}
