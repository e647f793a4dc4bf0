import PostgresNIO
import StrataCore
import StrataSQLText

/// Full-text search vectors: which columns a `tsvector` column is built from.
extension PostgresIntrospector {
    /// The type of a full-text search vector, as ``SQLCanonicalForm/typeName(_:dialect:)`` spells it.
    static let searchVectorType = SQLCanonicalForm.typeName("tsvector", dialect: .postgres)

    /// Sets the ``DatabaseSchema/Column/searchSources`` of each `tsvector` column (already an
    /// empty list) of `columns` (by table): the columns named in its generation expression
    /// (`generationExpressions`, by table then column), or the columns a trigger calling the
    /// built-in `tsvector_update_trigger` or `tsvector_update_trigger_column` builds it from (the
    /// vector is their first argument, a text search configuration, or a column naming one, the
    /// second, the text columns the rest). A vector kept otherwise keeps its empty list. Sets its
    /// ``DatabaseSchema/Column/searchConfiguration`` too: the first argument of the expression's
    /// `to_tsvector`, or `tsvector_update_trigger`'s second argument.
    static func findSearchSources(
        of columns: inout [String: [DatabaseSchema.Column]], generationExpressions: [String: [String: String]],
        _ session: PostgresSession, _ namespace: String
    ) async throws {
        guard columns.values.contains(where: { $0.contains { $0.searchSources != nil } }) else { return }
        var triggerSources: [String: [String: (sources: [String], configuration: String?)]] = [:]
        for row in try await session.textRows(
            """
            SELECT c.relname::text, encode(t.tgargs, 'hex'), p.proname::text
            FROM pg_catalog.pg_trigger t
            JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_catalog.pg_proc p ON p.oid = t.tgfoid
            JOIN pg_catalog.pg_namespace pn ON pn.oid = p.pronamespace
            WHERE n.nspname = \(namespace) AND NOT t.tgisinternal AND pn.nspname = 'pg_catalog'
              AND p.proname IN ('tsvector_update_trigger', 'tsvector_update_trigger_column')
            ORDER BY c.relname, t.tgname
            """)
        {
            guard row.count == 3, let table = row[0], let arguments = row[1].flatMap(triggerArguments),
                arguments.count > 2, triggerSources[table]?[arguments[0]] == nil
            else { continue }
            // tsvector_update_trigger_column's second argument is a column naming the configuration.
            let configuration = row[2] == "tsvector_update_trigger" ? configurationName(arguments[1]) : nil
            triggerSources[table, default: [:]][arguments[0]] = (Array(arguments.dropFirst(2)), configuration)
        }
        for (table, tableColumns) in columns {
            let names = tableColumns.map(\.name)
            for index in tableColumns.indices where tableColumns[index].searchSources != nil {
                let vector = tableColumns[index].name
                let sources: [String]
                if let expression = generationExpressions[table]?[vector] {
                    sources = columnsNamed(in: expression, among: names)
                    columns[table]?[index].searchConfiguration = configurationNamed(in: expression)
                } else {
                    let trigger = triggerSources[table]?[vector]
                    sources = trigger?.sources.filter(names.contains) ?? []
                    columns[table]?[index].searchConfiguration = trigger?.configuration
                }
                columns[table]?[index].searchSources = sources.filter { $0 != vector }
            }
        }
    }

    /// The arguments of a trigger from `pg_trigger.tgargs` in hex (`encode(tgargs, 'hex')`):
    /// each argument's UTF-8 bytes followed by a zero byte. Nil when the text is not that.
    static func triggerArguments(_ hex: String) -> [String]? {
        var bytes: [UInt8] = []
        var digits = hex.utf8.makeIterator()
        while let high = digits.next() {
            guard let low = digits.next(), let byte = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(byte)
        }
        guard bytes.isEmpty || bytes.last == 0 else { return nil }
        var arguments: [String] = []
        for argument in bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast() {
            guard let text = String(validating: argument, as: UTF8.self) else { return nil }
            arguments.append(text)
        }
        return arguments
    }

    /// The columns of `columns` an expression names (as `pg_get_expr` prints it), in the order it
    /// first names them: names that are neither a function called (`coalesce(`) nor a type cast
    /// to (`::regconfig`), an unquoted name matched as PostgreSQL folds it (to lower case).
    static func columnsNamed(in expression: String, among columns: [String]) -> [String] {
        guard let tokens = try? SQLLexer(dialect: SQLDialect.postgres.syntax).significantTokens(expression) else {
            return []
        }
        var named: [String] = []
        for (offset, token) in tokens.enumerated() where token.isName {
            if offset + 1 < tokens.count, tokens[offset + 1].isSymbol("(") { continue }
            if offset > 0, tokens[offset - 1].isSymbol("::") { continue }
            let name = token.kind == .word ? token.value.lowercased() : token.value
            if columns.contains(name), !named.contains(name) { named.append(name) }
        }
        return named
    }

    /// The text search configuration the first `to_tsvector` of an expression (as `pg_get_expr`
    /// prints it) names as its first argument, a literal (`to_tsvector('english'::regconfig, …)`),
    /// as ``configurationName(_:)`` spells it; nil when there is none (`to_tsvector(title)` uses
    /// the server's default configuration).
    static func configurationNamed(in expression: String) -> String? {
        guard let tokens = try? SQLLexer(dialect: SQLDialect.postgres.syntax).significantTokens(expression) else {
            return nil
        }
        for offset in tokens.indices where offset + 3 < tokens.count && tokens[offset].isName {
            let name = tokens[offset].kind == .word ? tokens[offset].value.lowercased() : tokens[offset].value
            guard name == "to_tsvector", tokens[offset + 1].isSymbol("(") else { continue }
            let argument = tokens[offset + 2]
            guard argument.kind == .string, tokens[offset + 3].isSymbol(",") || tokens[offset + 3].isSymbol("::")
            else { return nil }
            return configurationName(argument.value)
        }
        return nil
    }

    /// A text search configuration's name as written (`pg_catalog.english`, `English`), as
    /// PostgreSQL reads it: folded to lower case (unless double-quoted), without the
    /// `pg_catalog.` schema its built-in configurations are in.
    static func configurationName(_ written: String) -> String? {
        guard let tokens = try? SQLLexer(dialect: SQLDialect.postgres.syntax).significantTokens(written),
            !tokens.isEmpty
        else { return nil }
        var parts: [String] = []
        for (offset, token) in tokens.enumerated() {
            if offset % 2 == 1 {
                guard token.isSymbol(".") else { return nil }
                continue
            }
            guard token.isName else { return nil }
            parts.append(token.kind == .word ? token.value.lowercased() : token.value)
        }
        guard tokens.count % 2 == 1 else { return nil }
        if parts.count == 2, parts[0] == "pg_catalog" { parts.removeFirst() }
        return parts.joined(separator: ".")
    }
}
