/// Renders the methods that differ per entity (updates of chosen fields, references, `hasMany`,
/// key-labeled finds for keys that are not one `id` field), each described once as an
/// ``EntityMethod`` and rendered into an extension of a runtime's store protocol (SQLite's
/// `SQLiteStore`, so it exists on the connection's `SQLiteAccess` and the database's
/// `SQLiteRepository` alike; PostgreSQL's `PostgresStore`, async), or of the repository
/// for observation.
struct EntityMethodsRenderer {
    let rendering: EntityRendering
    let runtime: SwiftRuntime

    func render(into writer: inout SwiftWriter) {
        let methods = fieldUpdates() + keyLabeled() + references() + toMany() + manyToMany()
        let r = rendering
        for (extended, onRepository) in [(runtime.store, false), (runtime.repository, true)] {
            let selected = methods.filter { $0.repositoryOnly == onRepository }
            guard !selected.isEmpty else { continue }
            writer.line()
            writer.block("extension \(extended) where Record == \(r.record)") { w in
                for (offset, method) in selected.enumerated() {
                    if offset > 0 { w.line() }
                    method.render(into: &w, effects: runtime.effects)
                }
            }
        }
    }

    /// `update(_:title:detail:…)`: changes chosen fields of a stored record.
    private func fieldUpdates() -> [EntityMethod] {
        let r = rendering
        let fields = r.nonKeyFields
        guard !fields.isEmpty else { return [] }
        let parameters = ["_ record: \(r.record)"] + fields.map { field in
            "\(SwiftNames.argumentLabel(field.name)) \(r.newValueName(field)): \(r.types.columnType(of: field))? = nil"
        }
        // By column name, not `$0.field`: twenty key paths per method made these methods about a
        // third of the repositories' code in a release build.
        let changes = fields.map { ".set(\(SwiftNames.stringLiteral($0.column)), ifGiven: \(r.newValueName($0)))" }
        var body = SwiftWriter()
        body.call("\(runtime.call) update", ["record"], array: "changing", changes)
        return [
            EntityMethod(
                doc: [
                    "Changes the given fields of the stored record that has `record`'s key, keeping the others as",
                    "stored, and returns the record as stored afterwards (nil when there is none). A nil argument",
                    "leaves its field unchanged; for an optional field, pass `.some(nil)` to store NULL.",
                ],
                // Disfavored: `update(record)` with every argument left out is the whole-record update
                // (which it silently was not while this method won the overload).
                attributes: r.exemptions(for: fields) + [
                    #"@available(*, deprecated, message: "use updateChanges(_:_:) { $0.field = value }, which takes no double optionals")"#,
                    "@_disfavoredOverload", "@discardableResult",
                ],
                name: "update",
                parameters: parameters,
                returns: "\(r.record)?",
                body: body
            )
        ]
    }

    /// `find(order:position:)`, `delete(…)`, `update(…, set:)`, `observe(…)`: the generic
    /// operations by key, labeled with the key's field names.
    private func keyLabeled() -> [EntityMethod] {
        let r = rendering
        guard !r.keyIsID else { return [] }
        let exemptions = r.exemptions(for: r.keyFields)
        let t = runtime.call
        func method(
            _ doc: String, _ name: String, _ extra: [String] = [], returns: String, call: String,
            discardable: Bool = true, repositoryOnly: Bool = false
        ) -> EntityMethod {
            var body = SwiftWriter()
            body.line(call)
            return EntityMethod(
                doc: [doc], attributes: exemptions + (discardable ? ["@discardableResult"] : []), name: name,
                parameters: r.keyParameters + extra, returns: returns, throwing: !repositoryOnly, body: body,
                repositoryOnly: repositoryOnly)
        }
        let observation = method(
            "The record with this key (nil while there is none), now and after every change to it.", "observe",
            returns: "AsyncValueObservation<\(r.record)?>", call: "observe(id: \(r.keyValue))", discardable: false,
            repositoryOnly: true)
        return [
            method(
                "The record with this key, or nil.", "find", returns: "\(r.record)?",
                call: "\(t) find(id: \(r.keyValue))", discardable: false),
            method(
                "Sets columns of the stored record with this key and returns it as stored (nil when there is none).",
                "update", ["set assignments: \(r.assignmentsType)"], returns: "\(r.record)?",
                call: "\(t) update(id: \(r.keyValue), set: assignments)"),
            method(
                "Deletes the record with this key; false when there is none.", "delete", returns: "Bool",
                call: "\(t) delete(id: \(r.keyValue))"),
        ] + (runtime.observes ? [observation] : [])
    }

    /// `customer(of:)`: the record a reference field refers to.
    private func references() -> [EntityMethod] {
        let r = rendering
        return r.references.map { field, target in
            let property = "record.\(SwiftNames.identifier(field.name))"
            var body = SwiftWriter()
            if field.isOptional { body.line("guard let key = \(property) else { return nil }") }
            let key = field.isOptional ? "key" : property
            let lookup = "\(runtime.call) find(\(r.names.record(target)).self, id: \(key))"
            body.line(field.isOptional ? "return " + lookup : lookup)
            return EntityMethod(
                doc: ["The `\(target.name)` that `\(field.name)` refers to (nil when there is none)."],
                attributes: RepositoryNames.lintExemptions(member: field.name),
                name: SwiftNames.identifier(field.name),
                parameters: ["of record: \(r.record)"],
                returns: "\(r.names.record(target))?",
                body: body
            )
        }
    }

    /// `orders(of:where:orderBy:)`: the records whose reference refers to a record.
    private func toMany() -> [EntityMethod] {
        let r = rendering
        return r.toMany.map { relation, target, via in
            let other = r.names.record(target)
            var body = SwiftWriter()
            body.line("guard let key = record.strataKey else { return [] }")
            body.line("return \(runtime.call) fetchAll(")
            body.line("    \(other).self,")
            body.line("    where: { ($0.\(SwiftNames.identifier(via.name)) == key).and(filter?($0)) },")
            body.line("    orderBy: order")
            body.line(")")
            return EntityMethod(
                doc: ["The `\(target.name)` records whose `\(via.name)` refers to `record`, matching `filter`, sorted by `order`."],
                attributes: RepositoryNames.lintExemptions(member: relation.name),
                name: SwiftNames.identifier(relation.name),
                parameters: [
                    "of record: \(r.record)",
                    "where filter: \(r.filterType(target)) = nil",
                    "orderBy order: \(r.orderType(target)) = nil",
                ],
                returns: "[\(other)]",
                body: body
            )
        }
    }
}

extension EntityMethodsRenderer {
    /// `tags(of:where:orderBy:)`: the records a `hasMany … through:` links to a record.
    fileprivate func manyToMany() -> [EntityMethod] {
        let r = rendering
        return r.manyToMany.map { relation, target, join, from, to in
            let other = r.names.record(target)
            let link =
                "StrataPredicate.linked(through: \(r.names.record(join)).self, from: \\.\(SwiftNames.identifier(from.name)), key, to: \\.\(SwiftNames.identifier(to.name)))"
            var body = SwiftWriter()
            body.line("guard let key = record.strataKey else { return [] }")
            body.line("return \(runtime.call) fetchAll(")
            body.line("    \(other).self,")
            body.line("    where: { \(link).and(filter?($0)) },")
            body.line("    orderBy: order")
            body.line(")")
            return EntityMethod(
                doc: ["The `\(target.name)` records that `\(join.name)` links to `record`, matching `filter`, sorted by `order`."],
                attributes: RepositoryNames.lintExemptions(member: relation.name),
                name: SwiftNames.identifier(relation.name),
                parameters: [
                    "of record: \(r.record)",
                    "where filter: \(r.filterType(target)) = nil",
                    "orderBy order: \(r.orderType(target)) = nil",
                ],
                returns: "[\(other)]",
                body: body
            )
        }
    }
}

/// One generated method: its documentation, signature and body, rendered in one place.
struct EntityMethod {
    var doc: [String]
    var attributes: [String]
    var name: String
    var parameters: [String]
    var returns: String
    var throwing = true
    var body: SwiftWriter
    /// True for methods of `SQLiteRepository` alone (observation needs the database).
    var repositoryOnly = false

    func render(into writer: inout SwiftWriter, effects: String) {
        writer.lines(doc.map { "/// " + $0 })
        writer.lines(attributes)
        writer.function(
            "public func \(name)", parameters: parameters, suffix: (throwing ? " " + effects : "") + " -> \(returns)"
        ) { w in
            w.appendIndented(body)
        }
    }
}
