/// Renders an entity's column set and its `StrataSQLiteRecord` conformance: what the runtime's
/// generic operations need to know about the entity, and nothing else.
struct SwiftRecordRenderer {
    let rendering: EntityRendering

    func render(into writer: inout SwiftWriter) {
        renderColumns(into: &writer)
        writer.line()
        renderConformance(into: &writer)
    }

    private func renderColumns(into writer: inout SwiftWriter) {
        let r = rendering
        let example = SwiftNames.identifier(r.entity.fields.first?.name ?? "id")
        writer.line("/// The columns of `\(r.entity.name)` for filters and sorts: `{ $0.\(example) == … }`,")
        writer.line(
            "/// `{ [$0.\(example).ascending] }`. Comparing a column with a value of another type does not compile.")
        writer.block("public struct \(r.columns): StrataColumnSet") { w in
            for field in r.entity.fields {
                w.line("/// The `\(field.name)` column (`\(field.column)`).")
                w.lines(RepositoryNames.lintExemptions(member: field.name))
                let type = "StrataColumn<\(r.record), \(r.types.columnType(of: field))>"
                w.line("public let \(SwiftNames.identifier(field.name)) = \(type)(\(SwiftNames.stringLiteral(field.column)))")
            }
            w.line()
            w.line("/// The column set.")
            w.line("public init() {}")
        }
    }

    private func renderConformance(into writer: inout SwiftWriter) {
        let r = rendering
        let properties = r.entity.fields.map { "\(SwiftNames.identifier($0.name))" }
        writer.line("/// `\(r.entity.name)` records are rows of `\(r.entity.table)`, bound and read by index in field order.")
        writer.block("extension \(r.record): StrataSQLiteRecord") { w in
            w.line("public typealias Columns = \(r.columns)")
            w.line()
            var table = [
                SwiftNames.stringLiteral(r.entity.table),
                "columns: [" + r.entity.fields.map { SwiftNames.stringLiteral($0.column) }.joined(separator: ", ") + "]",
                "primaryKey: [" + r.keyFields.map { SwiftNames.stringLiteral($0.column) }.joined(separator: ", ") + "]",
            ]
            if r.autoincrement != nil { table.append("assignsKey: true") }
            w.wrapped("public static let strataTable = StrataTable", table)
            w.line()
            let key = r.keyFields.map { SwiftNames.identifier($0.name) }
            w.line("public var strataKey: \(r.keyType)? { \(key.count == 1 ? key[0] : "(" + key.joined(separator: ", ") + ")") }")
            w.line()
            w.block("public init(row: StrataSQLiteRow) throws") { w in
                w.wrapped(
                    "try self.init",
                    r.entity.fields.enumerated().map { "\(SwiftNames.argumentLabel($1.name)): row[\($0)]" }
                )
            }
            w.line()
            w.block("public func bind(to arguments: inout StrataSQLiteArguments) throws") { w in
                w.wrapped("try arguments.bind", properties)
            }
            w.line()
            w.block("public static func bind(key: \(r.keyType), to arguments: inout StrataSQLiteArguments) throws") { w in
                w.line("try arguments.bind(" + (r.keyFields.count == 1 ? "key" : r.keyFields.indices.map { "key.\($0)" }.joined(separator: ", ")) + ")")
            }
            if let field = r.autoincrement {
                let type = r.types.baseType(of: field)
                let value = type == "Int64" ? "rowID" : "try StrataRowID.key(rowID)"
                w.line()
                w.block("public mutating func didInsert(rowID: Int64) throws") { w in
                    w.line("\(SwiftNames.identifier(field.name)) = \(value)")
                }
            }
        }
    }
}
