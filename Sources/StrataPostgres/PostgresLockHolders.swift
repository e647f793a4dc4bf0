import Logging
import PostgresNIO
import StrataRuntime
import StrataSQLText
import StrataStorage

/// The sessions holding locks on the tables a statement names, read when the statement timed out
/// waiting for a lock (its own wait is over by then, so `pg_blocking_pids` has nothing to say).
enum PostgresLockHolders {
    /// The other sessions holding a granted lock on a table named in `statement` (any quoted
    /// identifier that is a table, view or index of the search path), oldest transaction first.
    /// Empty when they are gone or cannot be read: this only explains a wait.
    static func holding(tablesOf statement: String, _ connection: PostgresConnection, logger: Logger) async
        -> [StrataLockHolder]
    {
        let names = quotedIdentifiers(in: statement)
        guard !names.isEmpty else { return [] }
        let candidates = names.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ", ")
        let sql = """
            SELECT a.pid::text, coalesce(a.state, ''), \
            extract(epoch FROM now() - coalesce(a.xact_start, a.query_start))::text, \
            left(regexp_replace(coalesce(a.query, ''), '\\s+', ' ', 'g'), 80), c.relname::text, l.mode, \
            coalesce(a.backend_type, CASE WHEN EXISTS (SELECT 1 FROM pg_stat_progress_vacuum v WHERE v.pid = a.pid) \
            THEN 'vacuum' ELSE '' END) \
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid JOIN pg_class c ON c.oid = l.relation \
            WHERE l.granted AND l.pid <> pg_backend_pid() AND l.relation IN \
            (SELECT to_regclass(quote_ident(n)) FROM unnest(ARRAY[\(candidates)]::text[]) AS n) \
            ORDER BY a.xact_start NULLS LAST, a.pid, c.relname, l.mode
            """
        guard let rows = try? await connection.strataRows(PostgresQuery(unsafeSQL: sql), logger: logger) else {
            return []
        }
        var holders: [StrataLockHolder] = []
        for row in rows {
            guard
                let (pid, state, age, query, table, mode, backendType) = try? row.decode(
                    (String, String, String?, String, String, String, String).self),
                let id = Int(pid)
            else { continue }
            let seconds = age.flatMap(Double.init)
            holders.append(
                StrataLockHolder(
                    pid: id, state: state, age: seconds.map { .milliseconds(Int64(($0 * 1000).rounded())) },
                    query: query, table: table, mode: mode, backendType: backendType))
        }
        return holders
    }

    /// The names written in double quotes in `sql` (as Strata's SQL writes every name), each
    /// once, in order.
    static func quotedIdentifiers(in sql: String) -> [String] {
        guard let tokens = try? SQLLexer(dialect: .postgres).significantTokens(sql) else { return [] }
        var names: [String] = []
        for token in tokens where token.kind == .quotedIdentifier && !names.contains(token.value) {
            names.append(token.value)
        }
        return names
    }
}
