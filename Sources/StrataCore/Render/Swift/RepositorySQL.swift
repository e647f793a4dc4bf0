/// The SQLite statements generated repository code runs for one entity, as SQL text. Every
/// identifier is quoted through `SQLDialect.quoted(_:)`; values are always `?` parameters.
struct RepositorySQL {
    let entity: Entity

    /// A quoted SQL identifier, by Strata's one quoting function.
    static func quoted(_ name: String) -> String {
        SQLDialect.sqlite.quoted(name)
    }

    var table: String { Self.quoted(entity.table) }

    /// The columns every query selects, by name and in field order (never `SELECT *`).
    var selection: String { entity.fields.map { Self.quoted($0.column) }.joined(separator: ", ") }

    /// The primary key fields with their 1-based parameter positions in field order.
    private var keyParameters: [(field: Field, position: Int)] {
        entity.primaryKeyFields.compactMap { key in
            entity.fields.firstIndex { $0.name == key.name }.map { (key, $0 + 1) }
        }
    }

    /// Fields that are not part of the primary key.
    var nonKeyFields: [Field] { entity.fields.filter { !entity.primaryKey.contains($0.name) } }

    /// `INSERT INTO t (c1, …) VALUES (?1, …)`: parameters in field order.
    var insert: String {
        let parameters = entity.fields.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
        return "INSERT INTO \(table) (\(selection)) VALUES (\(parameters))"
    }

    /// `SELECT … WHERE key = ?`, with the key's parameters from 1.
    var find: String { "SELECT \(selection) FROM \(table) WHERE \(keyCondition(from: 1))" }

    /// `DELETE … WHERE key = ?`, with the key's parameters from 1.
    var delete: String { "DELETE FROM \(table) WHERE \(keyCondition(from: 1))" }

    /// `UPDATE t SET c = ?n, … WHERE key = ?k`, numbered like `insert` so one binding serves both;
    /// nil when every column is part of the key.
    var update: String? {
        guard !nonKeyFields.isEmpty else { return nil }
        let assignments = nonKeyFields.map { field in
            "\(Self.quoted(field.column)) = ?\(position(of: field))"
        }
        let condition = keyParameters.map { "\(Self.quoted($0.field.column)) = ?\($0.position)" }
        return
            "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \(condition.joined(separator: " AND "))"
    }

    /// `INSERT … ON CONFLICT (key) DO UPDATE SET c = excluded.c, …`, numbered like `insert`.
    var upsert: String {
        let key = entity.primaryKeyFields.map { Self.quoted($0.column) }.joined(separator: ", ")
        guard !nonKeyFields.isEmpty else { return "\(insert) ON CONFLICT (\(key)) DO NOTHING" }
        let assignments = nonKeyFields.map { "\(Self.quoted($0.column)) = excluded.\(Self.quoted($0.column))" }
        return "\(insert) ON CONFLICT (\(key)) DO UPDATE SET \(assignments.joined(separator: ", "))"
    }

    /// The 1-based position of a field's parameter in `insert`.
    func position(of field: Field) -> Int {
        // By name (unique in an entity): comparing whole fields costs more than the rest of the lookup.
        (entity.fields.firstIndex { $0.name == field.name } ?? 0) + 1
    }

    private func keyCondition(from start: Int) -> String {
        entity.primaryKeyFields.enumerated().map { offset, key in
            "\(Self.quoted(key.column)) = ?\(start + offset)"
        }.joined(separator: " AND ")
    }
}
