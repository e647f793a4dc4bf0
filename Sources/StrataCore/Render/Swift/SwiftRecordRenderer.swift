/// Renders an entity's record conformances: what the runtime's generic operations need to know
/// about the entity, and nothing else. ``renderRecord(into:)`` is the `StrataRecord` part shared
/// by every database (its table, the column of each stored property, its key);
/// ``renderConformance(to:into:)`` is one database's part (how its columns are bound and read).
/// Filters and sorts reach the columns by the properties' key paths (`$0.isDone`), through the
/// runtime's `StrataColumns`.
struct SwiftRecordRenderer {
    let rendering: EntityRendering

    /// `extension X: StrataRecord { strataTable; strataKey }`.
    func renderRecord(into writer: inout SwiftWriter) {
        let r = rendering
        writer.line("/// `\(r.entity.name)` records are rows of `\(r.entity.table)`, bound and read by index in field order.")
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
        }
    }

    /// `extension X: SQLiteRecord { init(row:); bind(to:); bind(key:to:) }`, or another database's.
    func renderConformance(to runtime: SwiftRuntime, into writer: inout SwiftWriter) {
        let r = rendering
        let properties = r.entity.fields.map { field in
            let property = SwiftNames.identifier(field.name)
            guard let dateText = field.dateText, let bind = runtime.textDateBind else { return property }
            return bind(property, dateText)
        }
        writer.block("extension \(r.record): \(runtime.recordProtocol)") { w in
            w.block("public init(\(runtime.rowParameter)) throws") { w in
                w.wrapped(
                    "try self.init",
                    r.entity.fields.enumerated().map { index, field in
                        let cell = field.dateText.flatMap { format in runtime.textDateCell.map { $0(index, format) } }
                        return "\(SwiftNames.argumentLabel(field.name)): \(cell ?? runtime.cell(index))"
                    }
                )
            }
            w.line()
            w.block("public func bind(\(runtime.bindParameter)) throws") { w in
                if let bindEach = runtime.bindEach {
                    w.lines(properties.map(bindEach))
                } else {
                    w.wrapped(runtime.bindCall, properties)
                }
            }
            w.line()
            let keys = r.keyFields.count == 1 ? ["key"] : r.keyFields.indices.map { "key.\($0)" }
            w.block("public static func bind(key: \(r.keyType), \(runtime.bindParameter)) throws") { w in
                if let bindEach = runtime.bindEach {
                    w.lines(keys.map(bindEach))
                } else {
                    w.line("\(runtime.bindCall)(\(keys.joined(separator: ", ")))")
                }
            }
            let inexact = r.entity.fields.filter { runtime.inexactEncodings.contains(r.schema.columnEncoding(of: $0)) }
            if !inexact.isEmpty {
                w.line()
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
}
