/// A PostgreSQL migration's statements as migrators run them: steps before the version's
/// transaction, then the version's transaction, which records the version in the ledger.
///
/// Two layouts are read:
/// - **One transaction** (no `BEGIN` in the file): a leading run of ``PostgresLeadingStep``
///   statements, each on its own, then every other statement in the version's transaction,
///   which the migrator opens.
/// - **Several transactions** (the file has `BEGIN; … COMMIT;` blocks): each block is a step of
///   its own, committed with a record of it (``Step/transaction(_:)``); between blocks, leading
///   statements run on their own and an `UPDATE` is a backfill run in batches
///   (``PostgresBackfill``). The last block is the version's transaction.
///
/// Steps are numbered in file order (``numbered``), so that a run can record which ones it
/// completed and a rerun resume after them.
public struct PostgresMigrationScript: Hashable, Sendable {
    /// A step before the version's transaction.
    public enum Step: Hashable, Sendable {
        /// A statement run on its own (see ``PostgresLeadingStep``).
        case own(PostgresLeadingStep)
        /// Statements run in a transaction of their own, committed with a record of the step.
        case transaction([String])
        /// A column filled in batches of rows, each committed on its own.
        case backfill(PostgresBackfill)
    }

    /// The steps before the version's transaction, in order.
    public var steps: [Step]
    /// The statements of the version's transaction, without `BEGIN` and `COMMIT`.
    public var transaction: [String]

    /// A script that cannot be run as a migration.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What is wrong, naming the statement.
        public var description: String
    }

    /// Reads `statements` (as ``SQLScriptSplitter`` splits a migration file).
    public init(_ statements: [String]) throws {
        guard statements.contains(where: { Self.keyword(of: $0) == "BEGIN" }) else {
            let (leading, rest) = PostgresLeadingStep.split(statements)
            self.steps = leading.map(Step.own)
            self.transaction = rest
            return
        }
        var steps: [Step] = []
        var block: [String]?
        var lastBlock: [String]?
        for statement in statements {
            let keyword = Self.keyword(of: statement)
            if var open = block {
                switch keyword {
                case "BEGIN":
                    throw Failure(description: "`BEGIN` inside a transaction block: \(Self.excerpt(statement))")
                case "COMMIT", "END":
                    if let previous = lastBlock { steps.append(.transaction(previous)) }
                    lastBlock = open
                    block = nil
                case "ROLLBACK":
                    throw Failure(description: "`ROLLBACK` in a migration: \(Self.excerpt(statement))")
                default:
                    open.append(statement)
                    block = open
                }
                continue
            }
            if keyword == "BEGIN" {
                block = []
                continue
            }
            if let previous = lastBlock {
                steps.append(.transaction(previous))
                lastBlock = nil
            }
            if let kind = PostgresLeadingStep.kind(of: statement) {
                steps.append(.own(PostgresLeadingStep(statement: statement, kind: kind)))
            } else if let backfill = PostgresBackfill(statement) {
                steps.append(.backfill(backfill))
            } else {
                throw Failure(
                    description:
                        "a statement outside every transaction block must be a concurrent index build, a constraint added NOT VALID or validated, or an UPDATE of one column to fill in batches: \(Self.excerpt(statement))"
                )
            }
        }
        if block != nil { throw Failure(description: "the last transaction block has no `COMMIT`") }
        guard let version = lastBlock else {
            throw Failure(description: "no transaction block ends the migration (the version's transaction)")
        }
        self.steps = steps
        self.transaction = version
    }

    /// The steps with their numbers (from 1), as runs record them.
    public var numbered: [(number: Int, step: Step)] {
        steps.enumerated().map { ($0.offset + 1, $0.element) }
    }

    /// The statement that removes what `statement` of a transaction step made: its `-- undo:`
    /// comment, else derived when it is one the generator writes there (a column added, a trigger
    /// function, a trigger), else nil.
    /// Migrators run these, last first, when a version fails after the step committed.
    public static func undo(of statement: String) -> String? {
        // The generator says it where it cannot be derived (a constraint put back).
        for line in statement.split(separator: "\n") where line.hasPrefix("-- undo: ") {
            return String(line.dropFirst("-- undo: ".count))
        }
        guard let tokens = try? SQLLexer(dialect: .postgres).significantTokens(statement), tokens.count >= 3 else {
            return nil
        }
        func name(_ index: Int) -> String? {
            tokens.indices.contains(index) && tokens[index].isName ? PostgresBackfill.quoted(tokens[index].value) : nil
        }
        if tokens[0].isKeyword("ALTER"), tokens[1].isKeyword("TABLE"), let table = name(2), tokens.count >= 6,
            tokens[3].isKeyword("ADD"), tokens[4].isKeyword("COLUMN"), let column = name(5)
        {
            return "ALTER TABLE \(table) DROP COLUMN IF EXISTS \(column)"
        }
        guard tokens[0].isKeyword("CREATE") else { return nil }
        if tokens[1].isKeyword("FUNCTION"), let function = name(2) {
            return "DROP FUNCTION IF EXISTS \(function)()"
        }
        if tokens[1].isKeyword("TRIGGER"), let trigger = name(2),
            let on = tokens.firstIndex(where: { $0.isKeyword("ON") }), let table = name(on + 1)
        {
            return "DROP TRIGGER IF EXISTS \(trigger) ON \(table)"
        }
        return nil
    }

    /// The first word of a statement, upper-cased (`BEGIN`, `COMMIT`, `START`…), after comments.
    static func keyword(of statement: String) -> String? {
        guard let first = try? SQLLexer(dialect: .postgres).significantTokens(statement).first, first.kind == .word
        else { return nil }
        let word = first.value.uppercased()
        return word == "START" ? "BEGIN" : word
    }

    private static func excerpt(_ statement: String) -> String {
        let code = statement.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: " ")
        return code.count > 80 ? String(code.prefix(77)) + "..." : code
    }
}
