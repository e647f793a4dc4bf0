import StrataStorage
/// Checks a model's named queries against its latest version and types them.
///
/// Each query is prepared (never run) on an in-memory SQLite database made from the latest
/// version's `schema.sql`: SQLite's own error, at its position in the file, is the diagnostic of
/// a query that does not compile. Result columns read from a table column take the field's Swift
/// type (`sqlite3_column_table_name`/`origin_name`); parameters take the type of the column they
/// are compared with, assigned to or inserted into. What cannot be inferred is declared: a result
/// column as `AS "name: Type"`, a parameter as `-- param: name Type`.
enum QueryAnalyzer {
    /// The queries of `files` (path and text, in path order), typed against `schema`.
    static func analyze(files: [(path: String, text: String)], schema: Schema) -> ([AnalyzedQuery], [Diagnostic]) {
        var bag = DiagnosticBag()
        var sources: [QuerySource] = []
        var seen: [String: SourceLocation] = [:]
        for file in files {
            let (queries, diagnostics) = QueryFileParser.parse(file.text, file: file.path)
            bag.append(contentsOf: diagnostics)
            for query in queries {
                if let first = seen[query.name] {
                    bag.error(
                        "a second query named '\(query.name)' (the first is at \(SchemaLoader.name(of: first.file)):\(first.line):\(first.column)): query names must be unique in a model",
                        at: query.nameLocation)
                    continue
                }
                seen[query.name] = query.nameLocation
                sources.append(query)
            }
        }
        guard !sources.isEmpty else { return ([], bag.all) }
        let database: SQLiteScratchDatabase
        do {
            database = try SQLiteScratchDatabase(schema: SQLSchemaRenderer.schemaFile(for: schema, dialect: .sqlite))
        } catch {
            bag.error(error.message, at: sources[0].nameLocation)
            return ([], bag.all)
        }
        var analyzed: [AnalyzedQuery] = []
        var rowTypes: [String: String] = [:]
        let names = RepositoryNames(schema: schema)
        let taken = Set(schema.entities.map(names.accessor) + Self.databaseMembers)
        for source in sources {
            var checker = QueryChecker(source: source, schema: schema)
            if taken.contains(source.name) {
                checker.bag.error(
                    "the query name '\(source.name)' is taken by a member of \(names.database) and \(names.access); rename the query",
                    at: source.nameLocation)
            }
            if let query = checker.analyze(on: database) {
                if case .rows(let type, _) = query.result {
                    if schema.entity(named: type) != nil || schema.enumDecl(named: type) != nil {
                        checker.bag.error(
                            "the row type of query '\(source.name)', \(type), has the name of a type of the model; rename the query",
                            at: source.nameLocation)
                    } else if let other = rowTypes[type] {
                        checker.bag.error(
                            "queries '\(other)' and '\(source.name)' would both define \(type); rename one",
                            at: source.nameLocation)
                    }
                    rowTypes[type] = source.name
                }
                if !checker.bag.hasErrors { analyzed.append(query) }
            }
            bag.append(contentsOf: checker.bag.all)
        }
        return (analyzed, bag.all)
    }
}

extension QueryAnalyzer {
    /// The members every generated database and access type has, besides the entities' accessors.
    static let databaseMembers = ["db", "writer", "migrator", "inMemory", "read", "write", "observe", "live"]
}

/// The checks and typing of one query.
private struct QueryChecker {
    let source: QuerySource
    let schema: Schema
    var bag = DiagnosticBag()

    init(source: QuerySource, schema: Schema) {
        self.source = source
        self.schema = schema
    }

    mutating func analyze(on database: SQLiteScratchDatabase) -> AnalyzedQuery? {
        let prepared: SQLiteScratchDatabase.Prepared
        do {
            prepared = try database.prepare(source.sql)
        } catch {
            bag.error(error.message, at: error.offset.map(source.location(ofByte:)) ?? source.sqlStart)
            return nil
        }
        if let trailing = prepared.trailingOffset {
            bag.error(
                "a query is one statement; this starts a second one: give it its own '-- name:' line",
                at: source.location(ofByte: trailing))
            return nil
        }
        let references = QueryColumnReferences(sql: source.sql)
        let parameters = typeParameters(prepared.parameters, references: references)
        let result = resultType(prepared.columns, references: references)
        guard let parameters, let result else { return nil }
        var query = AnalyzedQuery(
            source: source, parameters: parameters, result: result, isReadOnly: prepared.isReadOnly)
        if case .rows = result {
            query.columnOrigins = prepared.columns.map { column in
                column.table.flatMap { table in column.origin.map { "\(table).\($0)" } }
            }
        }
        // Kept only when SQLite reads the same result columns from it.
        if let expanded = QueryStarExpansion.expand(source.sql, schema: schema),
            let again = try? database.prepare(expanded), again.trailingOffset == nil,
            again.columns.map(\.name) == prepared.columns.map(\.name),
            again.columns.map(\.table) == prepared.columns.map(\.table),
            again.columns.map(\.origin) == prepared.columns.map(\.origin)
        {
            query.expandedSQL = expanded
        }
        return query
    }

    // MARK: Parameters

    private mutating func typeParameters(_ names: [String?], references: QueryColumnReferences) -> [AnalyzedQuery
        .Parameter]?
    {
        let uses = references.parameterTokens
        var parameters: [AnalyzedQuery.Parameter] = []
        var failed = false
        for name in names {
            let written = references.offset(ofParameter: name).map(source.location(ofByte:)) ?? source.sqlStart
            guard let name, name.hasPrefix(":"), QueryFileParser.isIdentifier(String(name.dropFirst())) else {
                bag.error(
                    "write parameters as ':name' (\(name.map { "'\($0)'" } ?? "an anonymous '?'") is not): the name is the function's argument label",
                    at: written)
                failed = true
                continue
            }
            let label = String(name.dropFirst())
            if let problem = SwiftNames.argumentProblem(label) {
                bag.error(
                    "parameter '\(name)' cannot be the function's argument label: \(problem); rename it (e.g. ':value')",
                    at: written)
                failed = true
                continue
            }
            let occurrences = uses.filter { $0.name == name }.map(\.index)
            let firstLocation =
                occurrences.first.map { source.location(ofByte: references.tokens[$0].offset - 1) } ?? source.sqlStart
            if let declared = source.declaredParameters.first(where: { $0.name == label }) {
                guard let type = swiftType(declared.type) else {
                    bag.error(
                        "unknown type '\(declared.type)' for parameter ':\(label)': use a type of the schema language or an enum of the model",
                        at: declared.location)
                    failed = true
                    continue
                }
                parameters.append(.init(name: label, swiftType: type))
                continue
            }
            var inferred: (type: String, location: SourceLocation)?
            for occurrence in occurrences {
                let location = source.location(ofByte: references.tokens[occurrence].offset - 1)
                guard let use = references.use(ofParameterAt: occurrence),
                    let type = swiftType(of: use, references: references)
                else { continue }
                if let earlier = inferred, earlier.type != type {
                    bag.error(
                        "parameter ':\(label)' is used as \(type) here and as \(earlier.type) at \(earlier.location.line):\(earlier.location.column); use two parameters, or declare its type with '-- param: \(label) <Type>'",
                        at: location)
                    failed = true
                    break
                }
                inferred = inferred ?? (type, location)
            }
            guard let inferred else {
                if !failed {
                    bag.error(
                        "cannot infer the type of ':\(label)': compare it with a column ('column = :\(label)') or declare it after the name line: '-- param: \(label) <Type>'",
                        at: firstLocation)
                }
                failed = true
                continue
            }
            // Compared with a column of text dates, a Date is bound as that text.
            var dateText: SQLiteDateText?
            for occurrence in occurrences where dateText == nil {
                dateText = references.use(ofParameterAt: occurrence).flatMap { self.dateText(of: $0, references: references) }
            }
            parameters.append(.init(name: label, swiftType: inferred.type, dateText: dateText))
        }
        for declared in source.declaredParameters where !names.contains(":" + declared.name) {
            bag.error("parameter ':\(declared.name)' is declared but the query does not use it", at: declared.location)
            failed = true
        }
        return failed ? nil : parameters
    }

    /// The Swift type a use gives a parameter.
    private func swiftType(of use: QueryColumnReferences.Use, references: QueryColumnReferences) -> String? {
        switch use {
        case .type(let type): return type
        case .column(let table, let column, let optional):
            let tables = table.isEmpty ? references.tableOrder : [table]
            let fields = tables.compactMap { name in field(table: name, column: column) }
            guard fields.count == 1, let field = fields.first else { return nil }
            let base = SwiftFieldTypes(schema: schema).baseType(of: field)
            return optional ? base + "?" : base
        }
    }

    /// The `format:` of the Date field a use compares a parameter with, if any.
    private func dateText(of use: QueryColumnReferences.Use, references: QueryColumnReferences) -> SQLiteDateText? {
        guard case .column(let table, let column, _) = use else { return nil }
        let tables = table.isEmpty ? references.tableOrder : [table]
        let fields = tables.compactMap { name in field(table: name, column: column) }
        return fields.count == 1 ? fields.first?.dateText : nil
    }

    /// The field stored in `column` of `table`.
    private func field(table: String, column: String) -> Field? {
        schema.entities.first { $0.table.lowercased() == table.lowercased() }?.fields.first {
            $0.column.lowercased() == column.lowercased()
        }
    }

    /// `Int`, `String?`, `Priority`: a type name of the schema language or an enum of the model.
    private func swiftType(_ written: String) -> String? {
        let optional = written.hasSuffix("?")
        let base = optional ? String(written.dropLast()) : written
        guard ScalarType(rawValue: base) != nil || schema.enumDecl(named: base) != nil else { return nil }
        return SwiftNames.identifier(base) + (optional ? "?" : "")
    }

    // MARK: Result

    private mutating func resultType(_ columns: [SQLiteScratchDatabase.Column], references: QueryColumnReferences)
        -> AnalyzedQuery.Result?
    {
        guard !columns.isEmpty else { return .changes }
        if let entity = wholeEntity(columns, references: references) { return .entity(entity.name) }
        var properties: [AnalyzedQuery.Column] = []
        var failed = false
        var names: Set<String> = []
        for column in columns {
            let location = self.location(ofColumn: column.name)
            let field = column.table.flatMap { table in column.origin.flatMap { self.field(table: table, column: $0) } }
            let alias = ResultAlias(column.name)
            var name: String
            if let field, column.name == column.origin {
                name = field.name
            } else if let valid = alias.swiftName {
                name = valid
            } else {
                bag.error(
                    "result column '\(alias.name)' is not a Swift identifier: name it with AS (e.g. AS \(alias.suggestion))",
                    at: location)
                failed = true
                continue
            }
            guard names.insert(name).inserted else {
                bag.error("two result columns are named '\(name)': rename one with AS", at: location)
                failed = true
                continue
            }
            var type: String
            if let declared = alias.type {
                guard let valid = swiftType(declared) else {
                    bag.error(
                        "unknown type '\(declared)' for result column '\(alias.name)': use a type of the schema language or an enum of the model",
                        at: location)
                    failed = true
                    continue
                }
                type = valid
            } else if let field, let table = column.table {
                type = SwiftFieldTypes(schema: schema).columnType(of: field)
                if references.nullableTables.contains(table.lowercased()) && !type.hasSuffix("?") { type += "?" }
            } else {
                bag.error(
                    "cannot infer the type of result column '\(alias.name)': declare it with AS \"\(alias.swiftName ?? "name"): Type\" (e.g. AS \"count: Int\")",
                    at: location)
                failed = true
                continue
            }
            if alias.forcesOptional && !type.hasSuffix("?") { type += "?" }
            if alias.forcesRequired && type.hasSuffix("?") { type.removeLast() }
            // A column of text dates read as a Date is read from its text.
            let dateText = type.hasPrefix("Date") ? field?.dateText : nil
            properties.append(.init(name: name, swiftType: type, dateText: dateText))
        }
        guard !failed else { return nil }
        return .rows(type: Self.capitalized(source.name) + "Row", columns: properties)
    }

    /// The entity whose every column the statement returns, in field order and by their own names.
    private func wholeEntity(_ columns: [SQLiteScratchDatabase.Column], references: QueryColumnReferences) -> Entity? {
        guard let table = columns.first?.table, !references.nullableTables.contains(table.lowercased()),
            let entity = schema.entities.first(where: { $0.table == table }), entity.fields.count == columns.count
        else { return nil }
        for (field, column) in zip(entity.fields, columns) {
            guard column.table == table, column.origin == field.column, column.name == field.column else { return nil }
        }
        return entity
    }

    /// Where a result column is named in the query (its alias or its expression), or the query's start.
    private func location(ofColumn name: String) -> SourceLocation {
        for candidate in ["\"\(name)\"", name] {
            if let range = source.sql.range(of: candidate) {
                return source.location(
                    ofByte: source.sql.utf8.distance(from: source.sql.startIndex, to: range.lowerBound))
            }
        }
        return source.sqlStart
    }

    private static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }
}

/// A result column's name, read the way `sqlx` reads it: `name`, `name: Type`, `name?` (may be
/// NULL), `name!` (never NULL).
private struct ResultAlias {
    /// The name as written, without the type.
    var name: String
    /// The declared type, if any.
    var type: String?
    var forcesOptional = false
    var forcesRequired = false

    init(_ written: String) {
        var name = Substring(written)
        if let colon = written.firstIndex(of: ":") {
            name = written[..<colon]
            type = written[written.index(after: colon)...].trimmingCharacters()
        }
        name = Substring(name.trimmingCharacters())
        if name.hasSuffix("?") {
            forcesOptional = true
            name = name.dropLast()
        } else if name.hasSuffix("!") {
            forcesRequired = true
            name = name.dropLast()
        }
        self.name = String(name)
    }

    /// The Swift property name: the name when it is an identifier, lowerCamelCased when it is
    /// snake_case (`open_count` -> `openCount`); nil when it cannot be one.
    var swiftName: String? {
        guard QueryFileParser.isIdentifier(name) else { return nil }
        let parts = name.split(separator: "_")
        guard parts.count > 1 else { return name.prefix(1).lowercased() + name.dropFirst() }
        return parts[0].lowercased() + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A valid name to suggest: the name's words in lowerCamelCase.
    var suggestion: String {
        let words = name.split { !($0.isLetter || $0.isNumber) }
        let camel = words.enumerated().map {
            $0.offset == 0
                ? $0.element.lowercased() : $0.element.prefix(1).uppercased() + $0.element.dropFirst().lowercased()
        }.joined()
        return camel.isEmpty || camel.first?.isNumber == true ? "value" : camel
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " { text = text.dropFirst() }
        while let last = text.last, last == " " { text = text.dropLast() }
        return String(text)
    }
}
