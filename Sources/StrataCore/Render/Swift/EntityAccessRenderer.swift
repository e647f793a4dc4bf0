/// Renders `<Entity>Access`: every query of an entity on one GRDB connection, inside the
/// current transaction or read. The repository and the database type delegate to it.
struct EntityAccessRenderer {
    let rendering: EntityRendering

    func render(into writer: inout SwiftWriter) {
        let r = rendering
        let model = r.names
        writer.line(
            "/// Reads and writes `\(r.entity.name)` records on one connection, inside the current transaction or read:"
        )
        writer.line(
            "/// `\(model.access).\(model.accessor(r.entity))` in `\(model.database).read` and `write`, or on any GRDB `Database`."
        )
        writer.block("public struct \(r.access)") { w in
            w.line("/// The connection.")
            w.line("public let db: GRDB.Database")
            w.line()
            w.line("/// Queries `\(r.entity.name)` records on `db`.")
            w.block("public init(_ db: GRDB.Database)") { w in
                w.line("self.db = db")
            }
            renderInserts(into: &w)
            renderReads(into: &w)
            if r.hasKey {
                renderUpdates(into: &w)
            }
            renderDeletes(into: &w)
            renderRelations(into: &w)
        }
    }

    // MARK: Insert

    private func renderInserts(into w: inout SwiftWriter) {
        let r = rendering
        w.line()
        w.line(
            r.autoincrement == nil
                ? "/// Inserts a record and returns it as stored."
                : "/// Inserts a record and returns it as stored, with its assigned key.")
        w.line("@discardableResult")
        w.block("public func insert(_ record: \(r.record)) throws -> \(r.record)") { w in
            w.line("let query = try StrataStatement(db, sql: \(r.statements).insert)")
            w.line("try \(r.statements).bind(record, query.handle)")
            w.line("try query.execute()")
            returnStored("record", into: &w)
        }
        w.line()
        w.line("/// Inserts records in order, all or none, and returns them as stored.")
        w.line("@discardableResult")
        w.block("public func insert(contentsOf records: some Sequence<\(r.record)>) throws -> [\(r.record)]") { w in
            w.line("let query = try StrataStatement(db, sql: \(r.statements).insert)")
            if let key = r.autoincrement {
                w.line("var stored = Array(records)")
                w.line("try query.executeEach(")
                w.line("    stored.indices,")
                w.line("    bind: { index, statement in try \(r.statements).bind(stored[index], statement) },")
                w.line("    afterEach: { index in stored[index].\(SwiftNames.identifier(key.name)) = \(rowID(key)) }")
                w.line(")")
            } else {
                w.line("let stored = Array(records)")
                w.line("try query.executeEach(stored, bind: \(r.statements).bind)")
            }
            w.line("return stored")
        }
        guard r.hasKey else { return }
        w.line()
        w.line("/// Inserts the record, or replaces the stored one that has its key, and returns it as stored.")
        w.line("@discardableResult")
        w.block("public func upsert(_ record: \(r.record)) throws -> \(r.record)") { w in
            if let key = r.autoincrement {
                w.line("if record.\(SwiftNames.identifier(key.name)) == nil { return try insert(record) }")
            }
            w.line("let query = try StrataStatement(db, sql: \(r.statements).upsert)")
            w.line("try \(r.statements).bind(record, query.handle)")
            w.line("try query.execute()")
            returnStored("record", into: &w)
        }
    }

    private func rowID(_ key: Field) -> String {
        let type = rendering.coding.baseType(of: key)
        return type == "Int64" ? "db.lastInsertedRowID" : "\(type)(db.lastInsertedRowID)"
    }

    private func returnStored(_ record: String, into w: inout SwiftWriter) {
        guard let key = rendering.autoincrement else {
            w.line("return \(record)")
            return
        }
        w.line("var stored = \(record)")
        w.line("stored.\(SwiftNames.identifier(key.name)) = \(rowID(key))")
        w.line("return stored")
    }

    // MARK: Read

    private func renderReads(into w: inout SwiftWriter) {
        let r = rendering
        if r.hasKey {
            w.line()
            w.line("/// The record with this key, or nil.")
            w.lines(r.exemptions(for: r.keyFields))
            w.block("public func find(\(r.keyParameters)) throws -> \(r.record)?") { w in
                w.line("let query = try StrataStatement(db, sql: \(r.statements).find)")
                let keys = (0..<r.keyFields.count).map { r.keyName($0) }.joined(separator: ", ")
                w.line("try \(r.statements).bindKey(\(keys), query.handle)")
                w.line("return try query.fetchOne(\(r.statements).decode)")
            }
        }
        w.line()
        w.line(
            "/// The records matching `filter` (all when nil), sorted by `order`, skipping `offset`, at most `limit`.")
        w.declaration(
            "public func fetchAll",
            parameters: [
                "where filter: \(r.filterType) = nil", "orderBy order: \(r.orderType) = nil", "limit: Int? = nil",
                "offset: Int? = nil",
            ],
            suffix: " throws -> [\(r.record)]",
            depth: 1
        ) { w in
            w.call(
                "let sql = \(r.statements).select",
                arguments: ["where: filter", "orderBy: order", "limit: limit", "offset: offset"],
                depth: 2
            )
            w.line("return try StrataStatement(db, sql).fetchAll(\(r.statements).decode)")
        }
        w.line()
        w.line("/// The first record matching `filter` (any when nil) in the order of `order`, or nil.")
        w.declaration(
            "public func fetchOne",
            parameters: ["where filter: \(r.filterType) = nil", "orderBy order: \(r.orderType) = nil"],
            suffix: " throws -> \(r.record)?",
            depth: 1
        ) { w in
            w.call(
                "let sql = \(r.statements).select", arguments: ["where: filter", "orderBy: order", "limit: 1"], depth: 2
            )
            w.line("return try StrataStatement(db, sql).fetchOne(\(r.statements).decode)")
        }
        w.line()
        w.line("/// The number of records matching `filter` (all when nil).")
        w.block("public func count(where filter: \(r.filterType) = nil) throws -> Int") { w in
            w.call(
                "let sql = StrataSQL.count",
                arguments: ["from: \(r.statements).table", "where: filter?(\(r.columns)())"],
                depth: 2
            )
            w.line("return Int(try StrataStatement(db, sql).fetchInteger())")
        }
        w.line()
        w.line("/// True when a record matches `filter` (when there is any record, for nil).")
        w.block("public func exists(where filter: \(r.filterType) = nil) throws -> Bool") { w in
            w.call(
                "let sql = StrataSQL.exists",
                arguments: ["in: \(r.statements).table", "where: filter?(\(r.columns)())"],
                depth: 2
            )
            w.line("return try StrataStatement(db, sql).fetchInteger() != 0")
        }
    }

    // MARK: Update

    private func renderUpdates(into w: inout SwiftWriter) {
        let r = rendering
        if r.sql.update != nil {
            w.line()
            w.line("/// Replaces the stored record that has `record`'s key with `record`; false when there is none.")
            w.line("@discardableResult")
            w.block("public func update(_ record: \(r.record)) throws -> Bool") { w in
                if let key = r.autoincrement {
                    w.line("if record.\(SwiftNames.identifier(key.name)) == nil { return false }")
                }
                w.line("let query = try StrataStatement(db, sql: \(r.statements).update)")
                w.line("try \(r.statements).bind(record, query.handle)")
                w.line("try query.execute()")
                w.line("return db.changesCount > 0")
            }
            renderFieldUpdate(into: &w)
        }
        w.line()
        w.line("/// Sets columns of the stored record with this key and returns it as stored (nil when there is none).")
        w.lines(r.exemptions(for: r.keyFields))
        w.line("@discardableResult")
        w.declaration(
            "public func update",
            parameters: [r.keyParameters, "set assignments: \(r.assignmentsType)"],
            suffix: " throws -> \(r.record)?",
            depth: 1
        ) { w in
            w.line("let columns = \(r.columns)()")
            w.call(
                "let sql = StrataSQL.update",
                arguments: ["\(r.statements).table", "set: assignments(columns)", "where: \(r.keyPredicate)"],
                depth: 2
            )
            w.block("if let sql") { w in
                w.line("try StrataStatement(db, sql).execute()")
            }
            w.line("return try find(\(r.keyArguments))")
        }
        w.line()
        w.line("/// Sets columns of every record matching `filter` (all when nil); returns how many changed.")
        w.line("@discardableResult")
        w.declaration(
            "public func updateAll",
            parameters: ["where filter: \(r.filterType) = nil", "set assignments: \(r.assignmentsType)"],
            suffix: " throws -> Int",
            depth: 1
        ) { w in
            w.line("let columns = \(r.columns)()")
            w.call(
                "let sql = StrataSQL.update",
                arguments: ["\(r.statements).table", "set: assignments(columns)", "where: filter?(columns)"],
                depth: 2
            )
            w.line("guard let sql else { return 0 }")
            w.line("try StrataStatement(db, sql).execute()")
            w.line("return db.changesCount")
        }
    }

    /// `update(_ record:, title:, detail:, …)`: the TODO app's `updateTODOItem(item, title:, …)`.
    private func renderFieldUpdate(into w: inout SwiftWriter) {
        let r = rendering
        w.line()
        w.line(
            "/// Changes the given fields of the stored record that has `record`'s key, keeping the others as stored,")
        w.line(
            "/// and returns the record as stored afterwards (nil when there is none). A nil argument leaves its field")
        w.line("/// unchanged; for an optional field, pass `.some(nil)` to store NULL.")
        w.lines(r.exemptions(for: r.nonKeyFields))
        w.line("@discardableResult")
        let parameters = r.nonKeyFields.map { field in
            "\(SwiftNames.argumentLabel(field.name)) \(r.newValueName(field)): \(r.coding.columnType(of: field))? = nil"
        }
        w.declaration(
            "public func update",
            parameters: ["_ record: \(r.record)"] + parameters,
            suffix: " throws -> \(r.record)?",
            depth: 1
        ) { w in
            w.lines(r.keyGuard(of: "record", otherwise: "nil"))
            w.line("let columns = \(r.columns)()")
            w.line("var assignments: [StrataAssignment<\(r.record)>] = []")
            for field in r.nonKeyFields {
                let name = SwiftNames.identifier(field.name)
                let single =
                    "if let value = \(r.newValueName(field)) { assignments.append(columns.\(name).set(value)) }"
                if SwiftWriter.fits(single, depth: 2) {
                    w.line(single)
                } else {
                    w.block("if let value = \(r.newValueName(field))") { w in
                        w.line("assignments.append(columns.\(name).set(value))")
                    }
                }
            }
            w.call(
                "return try update", arguments: [r.keyArguments(of: "record"), "set: { _ in assignments }"], depth: 2)
        }
    }

    // MARK: Delete

    private func renderDeletes(into w: inout SwiftWriter) {
        let r = rendering
        if r.hasKey {
            w.line()
            w.line("/// Deletes the stored record that has `record`'s key; false when there is none.")
            w.line("@discardableResult")
            w.block("public func delete(_ record: \(r.record)) throws -> Bool") { w in
                w.lines(r.keyGuard(of: "record", otherwise: "false"))
                w.line("return try delete(\(r.keyArguments(of: "record")))")
            }
            w.line()
            w.line("/// Deletes the record with this key; false when there is none.")
            w.lines(r.exemptions(for: r.keyFields))
            w.line("@discardableResult")
            w.block("public func delete(\(r.keyParameters)) throws -> Bool") { w in
                w.line("let query = try StrataStatement(db, sql: \(r.statements).delete)")
                let keys = (0..<r.keyFields.count).map { r.keyName($0) }.joined(separator: ", ")
                w.line("try \(r.statements).bindKey(\(keys), query.handle)")
                w.line("try query.execute()")
                w.line("return db.changesCount > 0")
            }
        }
        w.line()
        w.line("/// Deletes every record matching `filter` (all when nil) and returns how many were deleted.")
        w.line("@discardableResult")
        w.block("public func deleteAll(where filter: \(r.filterType) = nil) throws -> Int") { w in
            w.call(
                "let sql = StrataSQL.delete",
                arguments: ["from: \(r.statements).table", "where: filter?(\(r.columns)())"],
                depth: 2
            )
            w.line("try StrataStatement(db, sql).execute()")
            w.line("return db.changesCount")
        }
    }

    // MARK: Relations

    private func renderRelations(into w: inout SwiftWriter) {
        let r = rendering
        for (field, target) in r.references {
            guard let targetKey = target.singlePrimaryKey else { continue }
            let targetAccess = r.names.entityAccess(target)
            let name = SwiftNames.identifier(field.name)
            w.line()
            w.line("/// The `\(target.name)` that `\(field.name)` refers to (nil when there is none).")
            w.lines(RepositoryNames.lintExemptions(member: field.name))
            w.block("public func \(name)(of record: \(r.record)) throws -> \(r.names.record(target))?") { w in
                let argument = SwiftNames.argumentLabel(targetKey.name)
                if field.isOptional {
                    w.line("guard let key = record.\(name) else { return nil }")
                    w.line("return try \(targetAccess)(db).find(\(argument): key)")
                } else {
                    w.line("return try \(targetAccess)(db).find(\(argument): record.\(name))")
                }
            }
        }
        for (relation, target, via) in r.toMany {
            guard let ownKey = r.entity.singlePrimaryKey else { continue }
            let targetRendering = EntityRendering(schema: r.schema, entity: target, names: r.names)
            let name = SwiftNames.identifier(relation.name)
            w.line()
            w.line(
                "/// The `\(target.name)` records whose `\(via.name)` refers to `record`, matching `filter`, sorted by `order`."
            )
            w.lines(RepositoryNames.lintExemptions(member: relation.name))
            w.declaration(
                "public func \(name)",
                parameters: [
                    "of record: \(r.record)", "where filter: \(targetRendering.filterType) = nil",
                    "orderBy order: \(targetRendering.orderType) = nil",
                ],
                suffix: " throws -> [\(targetRendering.record)]",
                depth: 1
            ) { w in
                let keyName = SwiftNames.identifier(ownKey.name)
                if ownKey.isAutoincrement {
                    w.line("guard let key = record.\(keyName) else { return [] }")
                } else {
                    w.line("let key = record.\(keyName)")
                }
                w.line("let owner = \(targetRendering.columns)().\(SwiftNames.identifier(via.name)) == key")
                w.line("let sql = \(targetRendering.statements).select(")
                w.line("    where: { columns in filter.map { owner && $0(columns) } ?? owner },")
                w.line("    orderBy: order")
                w.line(")")
                w.line("return try StrataStatement(db, sql).fetchAll(\(targetRendering.statements).decode)")
            }
        }
    }
}
