import StrataStorage

/// A statement at the start of a PostgreSQL migration that migrators run before, and outside, the
/// version's transaction, on its own: the generator puts there what would otherwise read a whole
/// table while holding a lock that blocks its writers (see the header of a migration file).
///
/// - `CREATE [UNIQUE] INDEX CONCURRENTLY [IF NOT EXISTS] name ON …`: PostgreSQL builds an index
///   concurrently only outside a transaction.
/// - `ALTER TABLE t ADD CONSTRAINT c … NOT VALID`: the constraint, checked on new rows only, at once.
/// - `ALTER TABLE t VALIDATE CONSTRAINT c`: the existing rows checked under a lock that lets
///   reads and writes go on.
///
/// What a step makes is undone (``undo``) when its version fails, so that the database is left
/// at the previous version.
public struct PostgresLeadingStep: Hashable, Sendable {
    /// What a leading statement does.
    public enum Kind: Hashable, Sendable {
        /// Builds the index `name` concurrently.
        case buildIndex(name: String)
        /// Adds the constraint `name` to `table`, `NOT VALID`.
        case addConstraint(table: String, name: String)
        /// Validates the constraint `name` of `table`.
        case validateConstraint(table: String, name: String)
    }

    /// The statement, as in the migration.
    public var statement: String
    /// What it does.
    public var kind: Kind

    /// Creates a step.
    public init(statement: String, kind: Kind) {
        self.statement = statement
        self.kind = kind
    }

    /// The statement that removes what this step made, or nil when it makes nothing (a validation).
    public var undo: String? {
        switch kind {
        case .buildIndex(let name): "DROP INDEX CONCURRENTLY IF EXISTS \(Self.quoted(name))"
        case .addConstraint(let table, let name):
            "ALTER TABLE \(Self.quoted(table)) DROP CONSTRAINT IF EXISTS \(Self.quoted(name))"
        case .validateConstraint: nil
        }
    }

    /// What the step makes, e.g. `index "customer_email_key"`, or nil when it makes nothing.
    public var made: String? {
        switch kind {
        case .buildIndex(let name): "index \(Self.quoted(name))"
        case .addConstraint(let table, let name): "constraint \(Self.quoted(name)) of \(Self.quoted(table)) (NOT VALID)"
        case .validateConstraint: nil
        }
    }

    /// The leading steps of a migration's statements (as ``SQLScriptSplitter`` splits them), and
    /// the statements after them, which run in the version's transaction. Only a leading run
    /// counts: such a statement further down stays in the transaction (where PostgreSQL refuses
    /// `CONCURRENTLY`), never reordered.
    public static func split(_ statements: [String]) -> (leading: [PostgresLeadingStep], rest: [String]) {
        var leading: [PostgresLeadingStep] = []
        for statement in statements {
            guard let kind = kind(of: statement) else { break }
            leading.append(PostgresLeadingStep(statement: statement, kind: kind))
        }
        return (leading, Array(statements.dropFirst(leading.count)))
    }

    /// What `statement` does when it is one of the leading kinds, else nil.
    static func kind(of statement: String) -> Kind? {
        guard let all = try? SQLLexer(dialect: .postgres).significantTokens(statement) else { return nil }
        var tokens = all[...]
        func take(_ keyword: String) -> Bool {
            guard tokens.first?.isKeyword(keyword) == true else { return false }
            tokens.removeFirst()
            return true
        }
        func name() -> String? {
            guard let token = tokens.first, token.isName else { return nil }
            tokens.removeFirst()
            return token.value
        }
        if take("CREATE") {
            _ = take("UNIQUE")
            guard take("INDEX"), take("CONCURRENTLY") else { return nil }
            if take("IF") {
                guard take("NOT"), take("EXISTS") else { return nil }
            }
            guard let index = name(), tokens.first?.isKeyword("ON") == true else { return nil }
            return .buildIndex(name: index)
        }
        guard take("ALTER"), take("TABLE"), let table = name() else { return nil }
        if take("VALIDATE") {
            guard take("CONSTRAINT"), let constraint = name(), tokens.isEmpty || tokens.first?.isSymbol(";") == true
            else { return nil }
            return .validateConstraint(table: table, name: constraint)
        }
        guard take("ADD"), take("CONSTRAINT"), let constraint = name() else { return nil }
        let rest = tokens.filter { !$0.isSymbol(";") }
        guard rest.count >= 2, rest[rest.count - 2].isKeyword("NOT"), rest[rest.count - 1].isKeyword("VALID") else {
            return nil
        }
        return .addConstraint(table: table, name: constraint)
    }

    private static func quoted(_ name: String) -> String { SQLIdentifier.quoted(name) }
}
