/// Renders an entity's record conformances: what the runtime's generic operations need to know
/// about the entity, and nothing else. ``renderRecord(into:)`` is the `StrataRecord` part shared
/// by every database (its table, the column of each stored property, its key, and how its columns
/// are read and bound, through each database's row reader and binder);
/// ``renderConformance(to:into:)`` is what one database adds (PostgreSQL: the record as stored).
/// Filters and sorts reach the columns by the properties' key paths (`$0.isDone`), through the
/// runtime's `StrataColumns`.
struct SwiftRecordRenderer {
    let rendering: EntityRendering

    /// `extension X: StrataRecord { strataTable; strataKey; init(row:); bind(to:); bind(key:to:) }`.
    func renderRecord(into writer: inout SwiftWriter) {
        let r = rendering
        writer.line("/// `\(r.entity.name)` records are rows of `\(r.entity.table)`, read and bound in field order.")
        writer.block("extension \(r.record): StrataRecord") { w in
            let key = "primaryKey: [" + r.keyFields.map { SwiftNames.stringLiteral($0.column) }.joined(separator: ", ") + "]"
            let columns = r.entity.fields.map { "(\\.\(SwiftNames.identifier($0.name)), \(SwiftNames.stringLiteral($0.column)))" }
            let table = "public static let strataTable = StrataTable<\(r.record)>"
            let dateTexts = r.entity.fields.compactMap { field in
                field.dateText.map { "(\\.\(SwiftNames.identifier(field.name)), .\($0.rawValue))" }
            }
            w.call(
                table, [SwiftNames.stringLiteral(r.entity.table)], array: "columns", columns,
                [key] + (r.autoincrement != nil ? ["assignsKey: true"] : [])
                    + (dateTexts.isEmpty ? [] : ["dateTexts: [" + dateTexts.joined(separator: ", ") + "]"]))
            w.line()
            let keyProperties = r.keyFields.map { SwiftNames.identifier($0.name) }
            let keyValue = keyProperties.count == 1 ? keyProperties[0] : "(" + keyProperties.joined(separator: ", ") + ")"
            w.line("public var strataKey: \(r.keyType)? { \(keyValue) }")
            w.line()
            renderCoding(into: &w)
        }
    }

    /// `init(row:)`, `bind(to:)` and `bind(key:to:)`: each field read and bound by its type, a
    /// Date declared with `format:` as that format keeps it. Each value is bound by its own call:
    /// a parameter pack across modules is not specialised, and would cost a dynamic call per value.
    private func renderCoding(into w: inout SwiftWriter) {
        let r = rendering
        w.block("public init(row: inout some StrataRowReader) throws") { w in
            w.wrapped(
                "try self.init",
                r.entity.fields.map { field in
                    "\(SwiftNames.argumentLabel(field.name)): row.next(\(field.dateText.map { ".\($0.rawValue)" } ?? ""))"
                }
            )
        }
        w.line()
        w.block("public func bind(to binder: inout some StrataValueBinder) throws") { w in
            for field in r.entity.fields {
                // A field named `binder` is shadowed by the parameter.
                let property = field.name == "binder" ? "self.binder" : SwiftNames.identifier(field.name)
                let value = field.dateText.map { "StrataTextDate(\(property), .\($0.rawValue))" } ?? property
                w.line("try \(value).bind(to: &binder)")
            }
        }
        w.line()
        let keys = r.keyFields.count == 1 ? ["key"] : r.keyFields.indices.map { "key.\($0)" }
        w.block("public static func bind(key: \(r.keyType), to binder: inout some StrataValueBinder) throws") { w in
            for key in keys { w.line("try \(key).bind(to: &binder)") }
        }
    }

    /// What a database adds to the record: PostgreSQL's `extension X: PostgresRecord {}`, with
    /// `strataStored` (the record as stored) when a field's values come back changed (dates and
    /// arrays of dates, to the microsecond), after a blank line. Nothing on a database that needs nothing more.
    func renderConformance(to runtime: SwiftRuntime, into writer: inout SwiftWriter) {
        let r = rendering
        guard let recordProtocol = runtime.recordProtocol else { return }
        writer.line()
        // An array's elements come back as its element type's values do (`[Date]`, to the microsecond).
        let inexact = r.entity.fields.filter { field in
            let stored = r.schema.arrayElementStorage(of: field) ?? r.schema.columnEncoding(of: field)
            return runtime.inexactEncodings.contains(stored)
        }
        guard !inexact.isEmpty else {
            writer.line("extension \(r.record): \(recordProtocol) {}")
            return
        }
        writer.block("extension \(r.record): \(recordProtocol)") { w in
            w.block("public var strataStored: \(r.record)") { w in
                w.line("var stored = self")
                for field in inexact {
                    let property = SwiftNames.identifier(field.name)
                    // A `format: date` field is a DATE column on PostgreSQL: the day is stored.
                    w.line("stored.\(property) = \(property).\(field.dateText == .date ? "strataStoredDay" : "strataStored")")
                }
                w.line("return stored")
            }
        }
    }
}
