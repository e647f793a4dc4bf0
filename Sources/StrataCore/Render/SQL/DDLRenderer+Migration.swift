import Foundation
import StrataStorage

/// The statements and expressions migrations need beyond creating tables: copying rows,
/// updating values, altering columns and constraints. Like the rest of ``DDLRenderer``, every
/// name goes through ``SQLDialect/quoted(_:)`` and every value through ``SQLDialect/literal(_:)``;
/// only `transform` and `before`/`after` SQL, which the schema's author writes, is used verbatim.
extension DDLRenderer {
    // MARK: Expressions

    /// A column reference.
    public func column(_ name: String) -> String { dialect.quoted(name) }

    /// A literal.
    public func literal(_ value: SQLValue) -> String { dialect.literal(value) }

    /// `CAST(expression AS type)` for a lossless conversion; the expression itself when the
    /// stored representation does not change (integer widening in SQLite).
    public func cast(_ expression: String, from: ColumnEncodingPair) -> String {
        let fromType = dialect.columnType(from.from)
        let toType = dialect.columnType(from.to)
        return fromType == toType ? expression : "CAST(\(expression) AS \(toType))"
    }

    /// `CASE expression WHEN old THEN new … ELSE expression END`.
    public func remap(_ expression: String, _ pairs: [(from: SQLValue, to: SQLValue)]) -> String {
        guard !pairs.isEmpty else { return expression }
        let whens = pairs.map { "WHEN \(literal($0.from)) THEN \(literal($0.to))" }.joined(separator: " ")
        return "CASE \(expression) \(whens) ELSE \(expression) END"
    }

    /// `COALESCE(expression, fallback)`.
    public func coalesce(_ expression: String, _ fallback: String) -> String {
        "COALESCE(\(expression), \(fallback))"
    }

    /// A user-written SQL expression, parenthesized so it composes.
    public func userExpression(_ sql: String) -> String { "(\(sql))" }

    // MARK: Rows

    /// `INSERT INTO "to" ("a", …) SELECT expressions… FROM "from"`: the copy step of a table rebuild.
    public func copyRows(into table: String, columns: [String], expressions: [String], from source: String) -> SQLStatement {
        let list = columns.map(dialect.quoted).joined(separator: ", ")
        let select = expressions.joined(separator: ",\n       ")
        return SQLStatement(
            kind: .copyRows(from: source, to: table),
            sql: "INSERT INTO \(dialect.quoted(table)) (\(list))\nSELECT \(select)\nFROM \(dialect.quoted(source))")
    }

    /// `UPDATE "table" SET "column" = expression [WHERE condition]`.
    public func update(_ table: String, set column: String, to expression: String, where condition: String? = nil) -> SQLStatement {
        SQLStatement(
            kind: .update(table: table, column: column),
            sql: "UPDATE \(dialect.quoted(table)) SET \(dialect.quoted(column)) = \(expression)" + (condition.map { " WHERE \($0)" } ?? ""))
    }

    /// `"column" IS NULL`.
    public func isNull(_ column: String) -> String { "\(dialect.quoted(column)) IS NULL" }

    // MARK: Columns (PostgreSQL)

    private func alter(_ table: String, _ column: String, _ action: String) -> SQLStatement {
        SQLStatement(
            kind: .alterColumn(table: table, column: column),
            sql: "ALTER TABLE \(dialect.quoted(table)) ALTER COLUMN \(dialect.quoted(column)) \(action)")
    }

    /// `ALTER COLUMN … TYPE type USING expression`.
    public func alterType(_ table: String, _ column: String, to encoding: ColumnEncoding, using expression: String) -> SQLStatement {
        alter(table, column, "TYPE \(dialect.columnType(encoding)) USING \(expression)")
    }

    /// `ALTER COLUMN … TYPE … USING …` to the column type of `field`: an array field's array
    /// type, else the type of its storage.
    public func alterType(_ table: String, _ column: String, to field: Field, in schema: Schema, using expression: String) -> SQLStatement {
        guard let element = schema.arrayElementStorage(of: field) else {
            return alterType(table, column, to: schema.columnEncoding(of: field), using: expression)
        }
        return alter(table, column, "TYPE \(rules.arrayColumnType(of: element)) USING \(expression)")
    }

    /// `ALTER COLUMN … SET NOT NULL`.
    public func setNotNull(_ table: String, _ column: String) -> SQLStatement { alter(table, column, "SET NOT NULL") }

    /// `ALTER COLUMN … DROP NOT NULL`.
    public func dropNotNull(_ table: String, _ column: String) -> SQLStatement { alter(table, column, "DROP NOT NULL") }

    /// `ALTER COLUMN … SET DEFAULT literal`, or `DROP DEFAULT` without a value.
    public func setDefault(_ table: String, _ column: String, to value: SQLValue?) -> SQLStatement {
        alter(table, column, value.map { "SET DEFAULT \(literal($0))" } ?? "DROP DEFAULT")
    }

    /// `ALTER TABLE … ADD COLUMN "name" TYPE [DEFAULT …]`, nullable, without constraints: a column
    /// that is filled and constrained by later statements. Without `withDefault`, the column
    /// gets no default either (every existing row holds NULL until filled).
    public func addBareColumn(
        _ field: Field, of entity: Entity, in schema: Schema, onTable table: String, withDefault: Bool = true
    ) -> SQLStatement {
        var bare = field
        if !withDefault {
            bare.defaultValue = nil
            bare.sqlDefault = nil
        }
        bare.isOptional = true
        bare.isUnique = false
        bare.isAutoincrement = false
        return SQLStatement(
            kind: .addColumn(table: table, column: field.column),
            sql: "ALTER TABLE \(dialect.quoted(table)) ADD COLUMN " + columnDefinition(bare, of: entity, in: schema))
    }

    // MARK: Constraints (PostgreSQL)

    /// `ALTER TABLE … DROP CONSTRAINT "name"`.
    public func dropConstraint(_ name: String, onTable table: String) -> SQLStatement {
        SQLStatement(
            kind: .dropConstraint(name: name, table: table),
            sql: "ALTER TABLE \(dialect.quoted(table)) DROP CONSTRAINT \(dialect.quoted(name))")
    }

    /// `add` (an `ADD CONSTRAINT` of constraint `name` on `table`) marked `NOT VALID`: PostgreSQL
    /// checks only the rows written from then on, without scanning the table.
    public func notValid(_ add: SQLStatement, name: String, table: String) -> SQLStatement {
        SQLStatement(kind: .addConstraintNotValid(name: name, table: table), sql: add.sql + " NOT VALID")
    }

    /// `LOCK TABLE "a", "b" IN ACCESS EXCLUSIVE MODE`, with a comment saying why it comes first.
    public func lockTables(_ tables: [String], because reason: [String]) -> SQLStatement {
        SQLStatement(
            kind: .lockTables(tables), comments: reason.flatMap { dialect.comment($0) },
            sql: "LOCK TABLE \(tables.map(dialect.quoted).joined(separator: ", ")) IN ACCESS EXCLUSIVE MODE")
    }

    /// `ALTER TABLE … VALIDATE CONSTRAINT "name"`: the existing rows checked under a lock that lets
    /// reads and writes go on.
    public func validateConstraint(_ name: String, onTable table: String) -> SQLStatement {
        SQLStatement(
            kind: .validateConstraint(name: name, table: table),
            sql: "ALTER TABLE \(dialect.quoted(table)) VALIDATE CONSTRAINT \(dialect.quoted(name))")
    }

    /// The unique constraint of a field over the unique index of the same name built beforehand
    /// (``uniqueIndex(_:of:)``): `ADD CONSTRAINT … UNIQUE USING INDEX`, which does not scan.
    public func addUniqueUsingIndex(_ field: Field, of entity: Entity) -> SQLStatement {
        let name = SQLConstraintName.unique(table: entity.table, column: field.column)
        return addConstraint(name, "UNIQUE USING INDEX \(dialect.quoted(name))", onTable: entity.table)
    }

    /// The unique index that backs a field's unique constraint, named as the constraint.
    public func uniqueIndex(_ field: Field, of entity: Entity) -> Index {
        Index(
            name: SQLConstraintName.unique(table: entity.table, column: field.column), hasExplicitName: true,
            fields: [field.name], isUnique: true, location: field.location)
    }

    /// A required column added in one statement, `NOT NULL` with its default: PostgreSQL 11 and
    /// later store the default once, without rewriting or scanning the table.
    public func addRequiredColumn(_ field: Field, of entity: Entity, in schema: Schema, onTable table: String) -> SQLStatement {
        var column = field
        column.isUnique = false
        column.isAutoincrement = false
        return SQLStatement(
            kind: .addColumn(table: table, column: field.column),
            sql: "ALTER TABLE \(dialect.quoted(table)) ADD COLUMN " + columnDefinition(column, of: entity, in: schema))
    }

    private func addConstraint(_ name: String, _ definition: String, onTable table: String) -> SQLStatement {
        SQLStatement(
            kind: .addConstraint(name: name, table: table),
            sql: "ALTER TABLE \(dialect.quoted(table)) ADD CONSTRAINT \(dialect.quoted(name)) \(definition)")
    }

    /// The unique constraint of a field, named as in `CREATE TABLE`.
    public func addUnique(_ field: Field, of entity: Entity) -> SQLStatement {
        addConstraint(SQLConstraintName.unique(table: entity.table, column: field.column), "UNIQUE \(quotedList([field.column]))", onTable: entity.table)
    }

    /// The check constraint of a field (enum raw values), if it has one.
    public func addCheck(_ field: Field, of entity: Entity, in schema: Schema) -> SQLStatement? {
        guard let check = checkExpression(of: field, in: schema) else { return nil }
        return addConstraint(SQLConstraintName.check(table: entity.table, column: field.column), "CHECK (\(check))", onTable: entity.table)
    }

    /// The primary key constraint of an entity.
    public func addPrimaryKey(of entity: Entity) -> SQLStatement {
        addConstraint(
            SQLConstraintName.primaryKey(table: entity.table), "PRIMARY KEY \(quotedList(entity.primaryKeyFields.map(\.column)))",
            onTable: entity.table)
    }

    /// `ALTER SEQUENCE "old" RENAME TO "new"` (the sequence of an identity column).
    public func renameSequence(_ name: String, to newName: String) -> SQLStatement {
        SQLStatement(kind: .renameSequence(from: name, to: newName), sql: "ALTER SEQUENCE \(dialect.quoted(name)) RENAME TO \(dialect.quoted(newName))")
    }

    /// `ALTER INDEX "name" RENAME TO "newName"` (PostgreSQL).
    public func renameIndex(_ name: String, to newName: String) -> SQLStatement {
        SQLStatement(kind: .renameIndex(from: name, to: newName), sql: "ALTER INDEX \(dialect.quoted(name)) RENAME TO \(dialect.quoted(newName))")
    }

    /// SQL the schema's author wrote, run as it is.
    public func custom(_ sql: String, comment: String) -> SQLStatement {
        var text = sql.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(";") { text.removeLast() }
        return SQLStatement(kind: .custom, comments: dialect.comment(comment), sql: text)
    }
}

/// A conversion between two stored encodings.
public struct ColumnEncodingPair: Hashable, Sendable {
    /// The stored encoding before.
    public var from: ColumnEncoding
    /// The stored encoding after.
    public var to: ColumnEncoding
}
