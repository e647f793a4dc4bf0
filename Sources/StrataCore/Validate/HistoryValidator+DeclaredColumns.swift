/// What a field declares in SQL (`sqlType`, `check`, a default expression) is kept from version
/// to version: the migrations do not change it yet, so a change is an error rather than a
/// database that silently differs from the model.
extension HistoryValidator {
    static func checkDeclaredColumnsUnchanged(_ schema: Schema, previous: Schema, _ bag: inout DiagnosticBag) {
        func text(_ sql: DialectSQL?) -> [String?] { [sql?.sqlite, sql?.postgres] }
        func shown(_ sql: DialectSQL?) -> String {
            guard let sql else { return "none" }
            if sql.sqlite == sql.postgres { return "'\(sql.sqlite ?? "")'" }
            return [("sqlite", sql.sqlite), ("postgres", sql.postgres)].compactMap { key, value in
                value.map { "\(key): '\($0)'" }
            }.joined(separator: ", ")
        }
        for entity in schema.entities {
            guard let source = previous.entity(named: entity.renamedFrom ?? entity.name) else { continue }
            func checks(_ entity: Entity) -> [[String?]] { entity.checks.map { [$0.name] + text($0.condition) } }
            if checks(source) != checks(entity) {
                bag.error(
                    "the 'checks' of '\(entity.name)' differ from \(previous.fileName)'s; migrations do not add, change or drop a table's checks yet: keep them as in \(previous.fileName)",
                    at: entity.checks.first?.location ?? entity.location)
            }
            for field in entity.fields {
                guard let old = source.field(named: field.renamedFrom ?? field.name) else { continue }
                let declared: [(key: String, old: DialectSQL?, new: DialectSQL?)] = [
                    ("'sqlType'", old.sqlType, field.sqlType), ("'check'", old.check, field.check),
                    ("the default expression", old.sqlDefault, field.sqlDefault),
                ]
                if old.isAutoincrement && field.isAutoincrement && old.isRowidKey != field.isRowidKey {
                    bag.error(
                        "'autoincrement' of '\(entity.name).\(field.name)' changes from \(old.isRowidKey ? "rowid" : "true") to \(field.isRowidKey ? "rowid" : "true"); migrations do not change how the database assigns a key yet: keep it as in \(previous.fileName)",
                        at: field.location)
                }
                if old.dateText != field.dateText, schema.columnEncoding(of: field) == .date, previous.columnEncoding(of: old) == .date {
                    bag.error(
                        "'format' of '\(entity.name).\(field.name)' changes from \(old.dateText?.rawValue ?? "none") to \(field.dateText?.rawValue ?? "none"); migrations do not convert how a Date is stored yet: keep it as in \(previous.fileName), or add a new field with a 'transform'",
                        at: field.dateTextLocation ?? field.location)
                }
                for item in declared where text(item.old) != text(item.new) {
                    bag.error(
                        "\(item.key) of '\(entity.name).\(field.name)' changes from \(shown(item.old)) to \(shown(item.new)); migrations do not change a column's declared type, check or default expression yet: keep it as in \(previous.fileName), or add a new field with a 'transform'",
                        at: item.new?.location ?? field.location)
                }
            }
        }
    }
}
