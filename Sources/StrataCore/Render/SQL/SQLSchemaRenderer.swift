import StrataStorage

/// The SQL files of a model: a version created from empty, in one dialect.
public enum SQLSchemaRenderer {
    /// The statements that create every table and index of `schema` in an empty database.
    ///
    /// Tables come in declaration order, except that a table comes after the tables it
    /// references; each table is followed by its indexes. References between tables that form
    /// a cycle are added at the end in PostgreSQL (SQLite accepts references to tables created
    /// later, and cannot add them afterwards).
    ///
    /// With `only`, just those entities (by name) are created: the tables a migration adds,
    /// next to tables that already exist. SQLite Date literals are in `sqliteDateFormat`.
    public static func createStatements(
        for schema: Schema, dialect: SQLDialect, only: Set<String>? = nil, sqliteDateFormat: SQLiteDateFormat = .current
    ) -> [SQLStatement] {
        let renderer = DDLRenderer(dialect: dialect, sqliteDateFormat: sqliteDateFormat)
        let pending = schema.entities.filter { only?.contains($0.name) ?? true }
        // Flags instead of removing from the array: large models would move every entity each time.
        var isCreated = [Bool](repeating: false, count: pending.count)
        var firstRemaining = 0
        // Tables outside `only` already exist.
        var created: Set<String> = only.map { Set(schema.entities.map(\.name)).subtracting($0) } ?? []
        var statements: [SQLStatement] = []
        var deferred: [(field: Field, entity: Entity)] = []
        while firstRemaining < pending.count {
            func isReady(_ entity: Entity) -> Bool {
                entity.fields.allSatisfy { field in
                    guard let target = field.referencedEntity, target != entity.name else { return true }
                    return created.contains(target) || schema.entity(named: target) == nil
                }
            }
            // The first remaining entity whose references exist, else the first remaining one.
            let ready = (firstRemaining..<pending.count).first { !isCreated[$0] && isReady(pending[$0]) }
            let index = ready ?? firstRemaining
            isCreated[index] = true
            while firstRemaining < pending.count && isCreated[firstRemaining] { firstRemaining += 1 }
            let entity = pending[index]
            var later: Set<String> = []
            if dialect.rules.altersConstraints {
                for field in entity.fields {
                    guard let target = field.referencedEntity, target != entity.name, !created.contains(target),
                        schema.entity(named: target) != nil
                    else { continue }
                    later.insert(field.name)
                    deferred.append((field, entity))
                }
            }
            statements.append(renderer.createTable(entity, in: schema, deferredForeignKeys: later))
            statements += entity.indexes.map { renderer.createIndex($0, of: entity) }
            if let search = entity.search { statements += renderer.rules.createSearch(search, of: entity, fill: false) }
            created.insert(entity.name)
        }
        statements += deferred.compactMap { renderer.addForeignKey($0.field, of: $0.entity, in: schema) }
        return statements
    }

    /// `schema.sql`: the version created from empty, rendered for `configuration`.
    public static func schemaFile(
        for schema: Schema, dialect: SQLDialect, configuration: GeneratorConfiguration = .commandLine
    ) -> String {
        script(
            for: schema, dialect: dialect,
            summary: "\(dialect.displayName) schema of \(schema.model) version \(schema.version), created from empty.",
            configuration: configuration
        ).rendered
    }

    /// `migrations/v1.sql`: from an empty database to the first version, rendered for `configuration`.
    public static func initialMigrationFile(
        for schema: Schema, dialect: SQLDialect, configuration: GeneratorConfiguration = .commandLine
    ) -> String {
        script(
            for: schema, dialect: dialect,
            summary:
                "\(dialect.displayName) migration of \(schema.model) from an empty database to version \(schema.version).",
            configuration: configuration
        ).rendered
    }

    /// A script creating `schema` from empty, under the generated-file header and `summary`,
    /// rendered for `configuration` (the command the header names, SQLite Date literals).
    public static func script(
        for schema: Schema, dialect: SQLDialect, summary: String, configuration: GeneratorConfiguration = .commandLine
    ) -> SQLScript {
        SQLScript(
            header: header(for: schema, dialect: dialect, summary: summary, regeneration: configuration.regeneration),
            statements: createStatements(for: schema, dialect: dialect, sqliteDateFormat: configuration.sqliteDateFormat))
    }

    /// The header of a generated SQL file: the source, that it is generated, the command of
    /// `regeneration` that regenerates it, and `summary`.
    public static func header(
        for schema: Schema, dialect: SQLDialect, summary: String, regeneration: Regeneration = .commandLine
    ) -> [String] {
        // The lines go through the dialect's comment function, so no name can end the comment.
        let lines = FileHeader.lines(source: FileHeader.source(schema), comment: "--", regeneration: regeneration).map { line in
            line.hasPrefix("-- ") ? String(line.dropFirst(3)) : line
        }
        return (lines + [summary]).flatMap { dialect.comment($0) }
    }
}
