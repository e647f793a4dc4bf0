/// A `CREATE [UNIQUE] INDEX CONCURRENTLY` statement at the start of a PostgreSQL migration: the
/// generator puts the indexes a schema marks `concurrently: true` there, and migrators run them
/// outside (before) the version's transaction, since PostgreSQL cannot build an index
/// concurrently inside one.
public struct ConcurrentIndexBuild: Hashable, Sendable {
    /// The statement, as in the migration.
    public var statement: String
    /// The index's name, unquoted.
    public var indexName: String

    /// Creates a build.
    public init(statement: String, indexName: String) {
        self.statement = statement
        self.indexName = indexName
    }

    /// The leading concurrent index builds of a migration's statements (as
    /// ``SQLScriptSplitter`` splits them), and the statements after them, which run in the
    /// version's transaction. Only a leading run counts: a `CONCURRENTLY` further down stays in
    /// the transaction, where PostgreSQL refuses it, never reordered.
    public static func split(_ statements: [String]) -> (builds: [ConcurrentIndexBuild], rest: [String]) {
        var builds: [ConcurrentIndexBuild] = []
        for statement in statements {
            guard let name = indexName(statement) else { break }
            builds.append(ConcurrentIndexBuild(statement: statement, indexName: name))
        }
        return (builds, Array(statements.dropFirst(builds.count)))
    }

    /// The index name of `CREATE [UNIQUE] INDEX CONCURRENTLY [IF NOT EXISTS] name ON …`, or nil
    /// for any other statement.
    static func indexName(_ statement: String) -> String? {
        guard var tokens = try? SQLLexer(dialect: .postgres).significantTokens(statement)[...] else { return nil }
        func take(_ keyword: String) -> Bool {
            guard tokens.first?.isKeyword(keyword) == true else { return false }
            tokens.removeFirst()
            return true
        }
        guard take("CREATE") else { return nil }
        _ = take("UNIQUE")
        guard take("INDEX"), take("CONCURRENTLY") else { return nil }
        if take("IF") {
            guard take("NOT"), take("EXISTS") else { return nil }
        }
        guard let name = tokens.first, name.isName, tokens.dropFirst().first?.isKeyword("ON") == true else {
            return nil
        }
        return name.value
    }
}
