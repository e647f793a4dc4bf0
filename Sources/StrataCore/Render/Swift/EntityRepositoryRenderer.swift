import Foundation

/// Renders `<Entity>Repository`: the queries of an entity on the database, each one read or one
/// transaction, plus observation of queries as asynchronous sequences.
struct EntityRepositoryRenderer {
    let rendering: EntityRendering

    func render(into writer: inout SwiftWriter) {
        let r = rendering
        writer.line(
            "/// The `\(r.entity.name)` records of a `\(r.names.database)`: every call is one read or one transaction;")
        writer.line("/// `observe…` methods follow a query as an `AsyncSequence`.")
        writer.block("public struct \(r.repository): Sendable") { w in
            w.line("/// The database.")
            w.line("public let writer: any GRDB.DatabaseWriter")
            w.line()
            w.line("/// The records of the database behind `writer`, which must be migrated.")
            w.block("public init(writer: any GRDB.DatabaseWriter)") { w in
                w.line("self.writer = writer")
            }
            for method in methods() {
                w.line()
                w.lines(method.doc.map { "/// " + $0 })
                if method.labelNames.contains(where: { !SwiftNames.isLowerCamelCase($0) }) {
                    w.line("// swift-format-ignore: AlwaysUseLowerCamelCase")
                }
                if method.discardable { w.line("@discardableResult") }
                w.declaration(
                    "public func \(method.name)",
                    parameters: method.parameters,
                    suffix: " throws -> \(method.result)",
                    depth: 1
                ) { w in
                    let call = "try \(r.access)(db).\(method.name)(\(method.arguments))"
                    let access = method.writes ? "write" : "read"
                    let single = "try writer.\(access) { db in \(call) }"
                    if SwiftWriter.fits(single, depth: 2) {
                        w.line(single)
                    } else {
                        w.line("try writer.\(access) { db in")
                        w.call(
                            "try \(r.access)(db).\(method.name)",
                            arguments: method.argumentList,
                            depth: 2,
                            indent: "    "
                        )
                        w.line("}")
                    }
                }
            }
            renderObservations(into: &w)
        }
    }

    private struct Method {
        var doc: [String]
        var name: String
        var parameters: [String]
        var arguments: String
        var result: String
        var writes: Bool
        var discardable: Bool
        /// Names of the method and its labels that come from the schema (for lint exemptions).
        var labelNames: [String] = []

        /// The arguments one by one, for a call split over several lines.
        var argumentList: [String] {
            // Over UTF-8 bytes: the brackets and the comma are ASCII, never part of another character.
            let utf8 = arguments.utf8
            var result: [String] = []
            var depth = 0
            var start = utf8.startIndex
            var index = start
            while index != utf8.endIndex {
                switch utf8[index] {
                case UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "<"): depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ">"): depth -= 1
                case UInt8(ascii: ",") where depth == 0:
                    result.append(Substring(utf8[start..<index]).trimmingWhitespace())
                    start = utf8.index(after: index)
                default: break
                }
                index = utf8.index(after: index)
            }
            if start != utf8.endIndex { result.append(Substring(utf8[start..<utf8.endIndex]).trimmingWhitespace()) }
            return result
        }
    }

    private func methods() -> [Method] {
        let r = rendering
        let record = r.record
        var list: [Method] = [
            Method(
                doc: ["Inserts a record in its own transaction and returns it as stored."],
                name: "insert", parameters: ["_ record: \(record)"], arguments: "record", result: record,
                writes: true, discardable: true),
            Method(
                doc: ["Inserts records in order, all in one transaction, and returns them as stored."],
                name: "insert", parameters: ["contentsOf records: some Sequence<\(record)>"],
                arguments: "contentsOf: records", result: "[\(record)]", writes: true, discardable: true),
        ]
        if r.hasKey {
            list.append(
                Method(
                    doc: ["Inserts the record, or replaces the stored one that has its key, and returns it as stored."],
                    name: "upsert", parameters: ["_ record: \(record)"], arguments: "record", result: record,
                    writes: true, discardable: true))
            list.append(
                Method(
                    doc: ["The record with this key, or nil."], name: "find", parameters: [r.keyParameters],
                    arguments: r.keyArguments, result: "\(record)?", writes: false, discardable: false,
                    labelNames: r.keyFields.map(\.name)))
        }
        list += [
            Method(
                doc: [
                    "The records matching `filter` (all when nil), sorted by `order`, skipping `offset`, at most `limit`."
                ],
                name: "fetchAll",
                parameters: [
                    "where filter: \(r.filterType) = nil", "orderBy order: \(r.orderType) = nil", "limit: Int? = nil",
                    "offset: Int? = nil",
                ],
                arguments: "where: filter, orderBy: order, limit: limit, offset: offset", result: "[\(record)]",
                writes: false, discardable: false),
            Method(
                doc: ["The first record matching `filter` (any when nil) in the order of `order`, or nil."],
                name: "fetchOne",
                parameters: ["where filter: \(r.filterType) = nil", "orderBy order: \(r.orderType) = nil"],
                arguments: "where: filter, orderBy: order", result: "\(record)?", writes: false, discardable: false),
            Method(
                doc: ["The number of records matching `filter` (all when nil)."], name: "count",
                parameters: ["where filter: \(r.filterType) = nil"], arguments: "where: filter", result: "Int",
                writes: false, discardable: false),
            Method(
                doc: ["True when a record matches `filter` (when there is any record, for nil)."], name: "exists",
                parameters: ["where filter: \(r.filterType) = nil"], arguments: "where: filter", result: "Bool",
                writes: false, discardable: false),
        ]
        if r.hasKey {
            if r.sql.update != nil {
                list.append(
                    Method(
                        doc: [
                            "Replaces the stored record that has `record`'s key with `record`; false when there is none."
                        ],
                        name: "update", parameters: ["_ record: \(record)"], arguments: "record", result: "Bool",
                        writes: true, discardable: true))
                list.append(
                    Method(
                        doc: [
                            "Changes the given fields of the stored record that has `record`'s key, keeping the others as",
                            "stored, and returns the record as stored afterwards (nil when there is none). A nil argument",
                            "leaves its field unchanged; for an optional field, pass `.some(nil)` to store NULL.",
                        ],
                        name: "update",
                        parameters: ["_ record: \(record)"]
                            + r.nonKeyFields.map { field in
                                "\(SwiftNames.argumentLabel(field.name)) \(r.newValueName(field)): "
                                    + "\(r.coding.columnType(of: field))? = nil"
                            },
                        arguments: (["record"]
                            + r.nonKeyFields.map { "\(SwiftNames.argumentLabel($0.name)): \(r.newValueName($0))" })
                            .joined(separator: ", "),
                        result: "\(record)?", writes: true, discardable: true, labelNames: r.nonKeyFields.map(\.name)))
            }
            list.append(
                Method(
                    doc: [
                        "Sets columns of the stored record with this key and returns it as stored (nil when there is none)."
                    ],
                    name: "update", parameters: [r.keyParameters, "set assignments: \(r.assignmentsType)"],
                    arguments: r.keyArguments + ", set: assignments", result: "\(record)?", writes: true,
                    discardable: true, labelNames: r.keyFields.map(\.name)))
        }
        list.append(
            Method(
                doc: ["Sets columns of every record matching `filter` (all when nil); returns how many changed."],
                name: "updateAll",
                parameters: ["where filter: \(r.filterType) = nil", "set assignments: \(r.assignmentsType)"],
                arguments: "where: filter, set: assignments", result: "Int", writes: true, discardable: true))
        if r.hasKey {
            list.append(
                Method(
                    doc: ["Deletes the stored record that has `record`'s key; false when there is none."],
                    name: "delete", parameters: ["_ record: \(record)"], arguments: "record", result: "Bool",
                    writes: true, discardable: true))
            list.append(
                Method(
                    doc: ["Deletes the record with this key; false when there is none."], name: "delete",
                    parameters: [r.keyParameters], arguments: r.keyArguments, result: "Bool", writes: true,
                    discardable: true, labelNames: r.keyFields.map(\.name)))
        }
        list.append(
            Method(
                doc: ["Deletes every record matching `filter` (all when nil) and returns how many were deleted."],
                name: "deleteAll", parameters: ["where filter: \(r.filterType) = nil"], arguments: "where: filter",
                result: "Int", writes: true, discardable: true))
        for (field, target) in r.references {
            list.append(
                Method(
                    doc: ["The `\(target.name)` that `\(field.name)` refers to (nil when there is none)."],
                    name: SwiftNames.identifier(field.name), parameters: ["of record: \(record)"],
                    arguments: "of: record", result: "\(r.names.record(target))?", writes: false, discardable: false,
                    labelNames: [field.name]))
        }
        for (relation, target, via) in r.toMany {
            let targetRendering = EntityRendering(schema: r.schema, entity: target, names: r.names)
            list.append(
                Method(
                    doc: [
                        "The `\(target.name)` records whose `\(via.name)` refers to `record`, matching `filter`, sorted by `order`."
                    ],
                    name: SwiftNames.identifier(relation.name),
                    parameters: [
                        "of record: \(record)", "where filter: \(targetRendering.filterType) = nil",
                        "orderBy order: \(targetRendering.orderType) = nil",
                    ],
                    arguments: "of: record, where: filter, orderBy: order", result: "[\(targetRendering.record)]",
                    writes: false, discardable: false, labelNames: [relation.name]))
        }
        return list
    }

    private func renderObservations(into w: inout SwiftWriter) {
        let r = rendering
        w.line()
        w.line("/// The records matching `filter`, sorted by `order`, now and after every change that affects them.")
        w.declaration(
            "public func observeAll",
            parameters: [
                "where filter: \(r.filterType) = nil", "orderBy order: \(r.orderType) = nil", "limit: Int? = nil",
                "offset: Int? = nil",
            ],
            suffix: " -> AsyncValueObservation<[\(r.record)]>",
            depth: 1
        ) { w in
            w.call(
                "let sql = \(r.statements).select",
                arguments: ["where: filter", "orderBy: order", "limit: limit", "offset: offset"],
                depth: 2
            )
            w.line("return StrataObservation.values(in: writer) { db in")
            w.line("    try StrataStatement(db, sql).fetchAll(\(r.statements).decode)")
            w.line("}")
        }
        w.line()
        w.line("/// The number of records matching `filter`, now and after every change that affects it.")
        w.declaration(
            "public func observeCount",
            parameters: ["where filter: \(r.filterType) = nil"],
            suffix: " -> AsyncValueObservation<Int>",
            depth: 1
        ) { w in
            w.call(
                "let sql = StrataSQL.count",
                arguments: ["from: \(r.statements).table", "where: filter?(\(r.columns)())"],
                depth: 2
            )
            w.line("return StrataObservation.values(in: writer) { db in")
            w.line("    Int(try StrataStatement(db, sql).fetchInteger())")
            w.line("}")
        }
        guard r.hasKey else { return }
        w.line()
        w.line("/// The record with this key (nil while there is none), now and after every change to it.")
        w.lines(r.exemptions(for: r.keyFields))
        w.block("public func observe(\(r.keyParameters)) -> AsyncValueObservation<\(r.record)?>") { w in
            w.line("return StrataObservation.values(in: writer) { db in")
            w.line("    try \(r.access)(db).find(\(r.keyArguments))")
            w.line("}")
        }
    }
}
