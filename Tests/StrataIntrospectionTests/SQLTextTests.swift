import StrataCore
import StrataIntrospection
import StrataSQLText
import Testing

/// Reading SQL back: script splitting, the canonical form of defaults and checks, constraint names.
@Suite struct SQLTextTests {
    @Test func scriptsSplitOnlyAtStatementEnds() throws {
        let script = """
            -- a comment; not a statement
            CREATE TABLE "a;b" (x TEXT DEFAULT 'c;d' /* e; */);
            SELECT $$ f; $$, $tag$ g; $tag$, E'h\\'; i';
            /* only a comment; */
            SELECT "j""; k";
            """
        let statements = try SQLScriptSplitter.statements(script, dialect: .postgres)
        #expect(statements.count == 3)
        #expect(statements[0].hasSuffix(#"CREATE TABLE "a;b" (x TEXT DEFAULT 'c;d' /* e; */)"#))
        #expect(statements[1] == #"SELECT $$ f; $$, $tag$ g; $tag$, E'h\'; i'"#)
        #expect(statements[2] == #"/* only a comment; */"# + "\n" + #"SELECT "j""; k""#)
        #expect(throws: SQLLexer.Failure.self) { try SQLScriptSplitter.statements("SELECT 'open", dialect: .postgres) }
    }

    @Test func onlyLeadingStepsRunOutsideTheTransaction() {
        let statements = [
            #"CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "a""b" ON "t" ("x")"#,
            #"create index concurrently plain on t (y)"#,
            #"ALTER TABLE "t" ADD CONSTRAINT "t_y_fkey" FOREIGN KEY ("y") REFERENCES "u" ("id") NOT VALID"#,
            #"ALTER TABLE "t" VALIDATE CONSTRAINT "t_y_fkey""#,
            #"ALTER TABLE "t" ADD COLUMN "z" TEXT"#,
            #"CREATE INDEX CONCURRENTLY "later" ON "t" ("z")"#,
        ]
        let (leading, rest) = PostgresLeadingStep.split(statements)
        #expect(
            leading.map(\.kind) == [
                .buildIndex(name: #"a"b"#), .buildIndex(name: "plain"), .addConstraint(table: "t", name: "t_y_fkey"),
                .validateConstraint(table: "t", name: "t_y_fkey"),
            ])
        #expect(rest == Array(statements.dropFirst(4)), "a later CONCURRENTLY is never moved out of the transaction")
        #expect(PostgresLeadingStep.split([#"CREATE INDEX "i" ON "t" ("x")"#]).leading.isEmpty)
        #expect(PostgresLeadingStep.split([#"ALTER TABLE "t" ADD CONSTRAINT "c" CHECK ("x" > 0)"#]).leading.isEmpty)
        #expect(leading[0].undo == #"DROP INDEX CONCURRENTLY IF EXISTS "a""b""#)
        #expect(leading[2].undo == #"ALTER TABLE "t" DROP CONSTRAINT IF EXISTS "t_y_fkey""#)
        #expect(leading[3].undo == nil)
    }

    @Test func postgresSpellingsOfDefaultsAreCanonical() {
        let pairs: [(String, String)] = [
            ("'-42'::integer", "-42"),
            ("'1e-05'::double precision", "1e-05"),
            ("'2024-01-31 12:00:00.25+00'::timestamp with time zone", "'2024-01-31 12:00:00.25+00'"),
            ("'3f2504e0-4f89-11d3-9a0c-0305e82c3301'::uuid", "'3f2504e0-4f89-11d3-9a0c-0305e82c3301'"),
            ("'''); DROP TABLE x; --'::text", "'''); DROP TABLE x; --'"),
            ("(0)::bigint", "0"),
            ("true", "TRUE"),
            ("100000.0", "100000"),
        ]
        for (catalog, canonical) in pairs {
            #expect(SQLCanonicalForm.defaultValue(catalog, dialect: .postgres) == canonical, "\(catalog)")
        }
        #expect(SQLCanonicalForm.defaultValue("NULL::text", dialect: .postgres) == nil)
        #expect(
            SQLCanonicalForm.defaultValue("E'a\\\\b'", dialect: .postgres)
                == SQLCanonicalForm.defaultValue("'a\\b'", dialect: .sqlite))
    }

    /// An array type is named by its element type's catalog name (the DDL writes `TIMESTAMPTZ[]`,
    /// `format_type` prints `timestamp with time zone[]`).
    @Test func arrayTypesTakeTheirElementsCatalogName() {
        let pairs = [
            ("TIMESTAMPTZ[]", "timestamp with time zone[]"), ("NUMERIC[]", "numeric[]"), ("BYTEA[]", "bytea[]"),
            ("numeric(10,2)[]", "numeric(10,2)[]"), ("int8[]", "bigint[]"), ("TEXT[]", "text[]"),
        ]
        for (written, catalog) in pairs {
            #expect(SQLCanonicalForm.typeName(written, dialect: .postgres) == catalog, "\(written)")
        }
    }

    @Test func checksOfBothDialectsReadAsAllowedValues() {
        let sqlite = SQLCanonicalForm.checkRule(#""priority" IN (0, 1, -2)"#, dialect: .sqlite)
        let postgres = SQLCanonicalForm.checkRule(
            "CHECK ((priority = ANY (ARRAY[0, 1, '-2'::integer])))", dialect: .postgres)
        #expect(sqlite == postgres)
        #expect(sqlite == .allowedValues(column: "priority", values: ["-2", "0", "1"]))
        let text = SQLCanonicalForm.checkRule(
            #"CHECK (("order" = ANY (ARRAY['a'::text, 'it''s'::text])))"#, dialect: .postgres)
        #expect(text == .allowedValues(column: "order", values: ["'a'", "'it''s'"]))
        #expect(SQLCanonicalForm.checkRule("x > 0", dialect: .sqlite) == .expression("X > 0"))
    }

    @Test func constraintNamesFitPostgresAndStayDistinct() {
        let table = String(repeating: "t", count: 60)
        let first = SQLConstraintName.check(table: table, column: "a_long_column_name_one")
        let second = SQLConstraintName.check(table: table, column: "a_long_column_name_two")
        #expect(first.utf8.count <= 63 && second.utf8.count <= 63)
        #expect(first != second)
        #expect(first.hasSuffix("_check") && first.hasPrefix("ttt"))
        #expect(first == SQLConstraintName.check(table: table, column: "a_long_column_name_one"))
        // Multi-byte names are cut at a character boundary.
        let wide = SQLConstraintName.primaryKey(table: String(repeating: "é", count: 40))
        #expect(wide.utf8.count <= 63 && wide.hasSuffix("_pkey"))
        #expect(SQLConstraintName.unique(table: "user", column: "handle") == "user_handle_key")
        #expect(SQLConstraintName.foreignKey(table: "order", column: "buyer") == "order_buyer_fkey")
    }

    @Test func postgresURLsReadLikeLibpq() throws {
        let tcp = try PostgresURL(parsing: "postgres://alice:s%40cret@db.example:6543/app?sslmode=require")
        #expect(tcp.user == "alice" && tcp.password == "s@cret" && tcp.host == "db.example" && tcp.port == 6543)
        #expect(tcp.database == "app" && tcp.tls == .require && tcp.socketFolder == nil)
        #expect(!tcp.description.contains("s@cret") && !tcp.description.contains("s%40cret"))
        let socket = try PostgresURL(parsing: "postgresql://postgres@/postgres?host=/tmp/pg")
        #expect(socket.socketFolder == "/tmp/pg" && socket.port == 5432 && socket.tls == .disable)
        let defaults = try PostgresURL(parsing: "postgres://bob@localhost")
        #expect(defaults.database == "bob" && defaults.password == nil)
        #expect(defaults.tls == .prefer, "libpq's default sslmode")
        #expect(throws: PostgresURL.Invalid.self) { try PostgresURL(parsing: "mysql://x@y/z") }
        #expect(throws: PostgresURL.Invalid.self) { try PostgresURL(parsing: "postgres://x@y/z?sslmode=sometimes") }
    }
}
