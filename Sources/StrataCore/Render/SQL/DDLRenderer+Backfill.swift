
/// The statements of a PostgreSQL backfill (``PostgresBackfillPlan``): a column filled in batches
/// of rows, each committed on its own, while a trigger keeps the rows the application writes
/// meanwhile in step, so that no lock that blocks writers is held while every row is written.
extension DDLRenderer {
    /// `BEGIN`: a transaction of a migration run in several.
    public func beginTransaction(_ reason: [String]) -> SQLStatement {
        SQLStatement(kind: .beginTransaction, comments: reason.flatMap { dialect.comment($0) }, sql: "BEGIN")
    }

    /// `COMMIT`.
    public func commitTransaction() -> SQLStatement { SQLStatement(kind: .commitTransaction, sql: "COMMIT") }

    /// `UPDATE "table" SET "column" = expression [WHERE condition]`, which migrators run in
    /// batches of rows by primary key, each committed on its own.
    public func backfill(_ table: String, set column: String, to expression: String, where condition: String? = nil)
        -> SQLStatement
    {
        var statement = update(table, set: column, to: expression, where: condition)
        statement.kind = .backfill(table: table, column: column)
        statement.comments = dialect.comment(
            "Filled in batches of rows, each committed on its own (`strata migrate` runs the batches).")
        return statement
    }

    /// The trigger function that computes `assignments` (column, expression over the row's
    /// columns by their names, and the condition, over them too, of the rows it applies to) on
    /// every row written to `table`: `NEW."c" := (SELECT expression FROM (SELECT NEW.*) AS
    /// "table")`, so that SQL written for an `UPDATE` of the table means the same for the row
    /// being written.
    ///
    /// `syncs` (a rolling version's renamed columns, new and old) are kept equal both ways: a row
    /// inserted with the new column NULL (by code of N-1) gets it from the old one, any other
    /// gives the old one its value; an update that changes the new column sets the old one, any
    /// other sets the new one from the old.
    public func createBackfillFunction(
        _ name: String, table: String, assignments: [(column: String, expression: String, condition: String?)],
        syncs: [(new: String, old: String)] = [], keptUntilContract: Bool = false
    ) -> SQLStatement {
        var body: [String] = []
        for sync in syncs {
            let (new, old) = (dialect.quoted(sync.new), dialect.quoted(sync.old))
            body += [
                "  IF TG_OP = 'INSERT' THEN",
                "    IF NEW.\(new) IS NULL THEN NEW.\(new) := NEW.\(old); ELSE NEW.\(old) := NEW.\(new); END IF;",
                "  ELSIF NEW.\(new) IS DISTINCT FROM OLD.\(new) THEN NEW.\(old) := NEW.\(new);",
                "  ELSE NEW.\(new) := NEW.\(old);",
                "  END IF;",
            ]
        }
        let row = "FROM (SELECT NEW.*) AS \(dialect.quoted(table))"
        for assignment in assignments {
            let set = "NEW.\(dialect.quoted(assignment.column)) := (SELECT \(assignment.expression) \(row));"
            body.append(assignment.condition.map { "  IF (SELECT \($0) \(row)) THEN \(set) END IF;" } ?? "  " + set)
        }
        let sql = (["CREATE FUNCTION \(dialect.quoted(name))() RETURNS trigger LANGUAGE plpgsql AS $strata$", "BEGIN"] + body
            + ["  RETURN NEW;", "END", "$strata$"]).joined(separator: "\n")
        return SQLStatement(
            kind: .createFunction(name: name),
            comments: dialect.comment(
                syncs.isEmpty && !keptUntilContract
                    ? "Keeps the rows written while the backfill runs in step; dropped at the end."
                    : "Keeps the rows written by code of either version in step; dropped by the contract."),
            sql: sql)
    }

    /// `CREATE TRIGGER "name" BEFORE INSERT OR UPDATE ON "table" FOR EACH ROW EXECUTE FUNCTION "name"()`.
    public func createBackfillTrigger(_ name: String, table: String) -> SQLStatement {
        SQLStatement(
            kind: .createTrigger(name: name, table: table),
            sql:
                "CREATE TRIGGER \(dialect.quoted(name)) BEFORE INSERT OR UPDATE ON \(dialect.quoted(table)) FOR EACH ROW EXECUTE FUNCTION \(dialect.quoted(name))()"
        )
    }

    /// `DROP TRIGGER "name" ON "table"`.
    public func dropTrigger(_ name: String, onTable table: String) -> SQLStatement {
        SQLStatement(kind: .dropTrigger(name: name, table: table), sql: "DROP TRIGGER \(dialect.quoted(name)) ON \(dialect.quoted(table))")
    }

    /// `DROP FUNCTION "name"()`.
    public func dropFunction(_ name: String) -> SQLStatement {
        SQLStatement(kind: .dropFunction(name: name), sql: "DROP FUNCTION \(dialect.quoted(name))()")
    }

    /// `CHECK ("column" IS NOT NULL)` added `NOT VALID` under `name`: validated without blocking
    /// writes, it lets `SET NOT NULL` skip its scan of the table.
    public func addNotNullCheck(_ name: String, table: String, column: String) -> SQLStatement {
        SQLStatement(
            kind: .addConstraintNotValid(name: name, table: table),
            sql:
                "ALTER TABLE \(dialect.quoted(table)) ADD CONSTRAINT \(dialect.quoted(name)) CHECK (\(dialect.quoted(column)) IS NOT NULL) NOT VALID"
        )
    }
}
