import StrataCore
import StrataIntrospection
import StrataSQLText
import StrataStorage

/// One table of an imported database as an entity: its columns as fields, its keys, references,
/// unique constraints and indexes, and a warning for each thing the schema language cannot say.
struct TableMapper {
    /// What every table's mapping needs to know about the others.
    struct Context {
        var dialect: SQLDialect
        /// The tables imported, by name.
        var tables: [String: DatabaseSchema.Table]
        /// Their entities' names, by table name.
        var entityNames: [String: String]
        /// What the values of String columns say about dates (SQLite), by table then column.
        var textDates: [String: [String: TextDateSurvey]] = [:]
    }

    let table: DatabaseSchema.Table
    let context: Context
    /// What is not imported as the database has it, in words naming `table.column`.
    private(set) var warnings: [String] = []
    /// The field of each imported column, by column name.
    private var fields: [String: String] = [:]
    /// The enums made from checks of String columns.
    private(set) var enums: [ImportedEnum] = []
    /// The entity and enum names taken (lower-cased), the enums' included.
    private(set) var typeNames: Set<String>

    init(table: DatabaseSchema.Table, context: Context, typeNames: Set<String>) {
        self.table = table
        self.context = context
        self.typeNames = typeNames
    }

    var dialect: SQLDialect { context.dialect }
    var keyColumns: [String] { table.primaryKey?.columns ?? [] }

    private func qualified(_ column: String) -> String { "'\(table.name).\(column)'" }

    private func list(_ columns: [String]) -> String { "(" + columns.joined(separator: ", ") + ")" }

    /// The entity.
    mutating func entity() -> ImportedEntity {
        var entity = ImportedEntity(name: context.entityNames[table.name] ?? table.name)
        if Naming.snakeCase.apply(entity.name) != table.name { entity.table = table.name }
        var taken: Set<String> = []
        var consumedChecks: Set<DatabaseSchema.Check> = []
        for column in table.columns {
            guard var field = field(of: column, consumedChecks: &consumedChecks) else { continue }
            field.name = ImportedNames.unique(field.name, among: taken)
            taken.insert(field.name.lowercased())
            if Naming.snakeCase.apply(field.name) != column.name { field.column = column.name }
            fields[column.name] = field.name
            entity.fields.append(field)
        }
        let keyFields = keyColumns.compactMap { fields[$0] }
        if keyFields.count > 1 {
            entity.primaryKey = keyFields
        } else if let key = keyFields.first, key != "id",
            let index = entity.fields.firstIndex(where: { $0.name == key })
        {
            entity.fields[index].isPrimaryKey = true
        }
        warnSearchVectors(of: entity)
        markUniques(&entity)
        warnForeignKeysNotImported()
        warnConstraintNames()
        entity.indexes += indexes()
        for check in table.checks where !consumedChecks.contains(check) {
            if let column = Self.onlyColumn(of: check.rule, among: table.columns.map(\.name), dialect: dialect),
                let name = fields[column], let index = entity.fields.firstIndex(where: { $0.name == name }),
                entity.fields[index].check == nil, entity.fields[index].type != ScalarType.bool.name,
                !enums.contains(where: { $0.name == entity.fields[index].type })
            {
                entity.fields[index].check = ImportedSQL(dialect: dialect.rawValue, text: check.rule.description)
                continue
            }
            switch check.rule {
            case .allowedValues(let column, _):
                warnings.append(
                    "the check of \(qualified(column)), \(check.rule), is not imported: the column is not imported, or its field's type is already checked"
                )
            case .expression(let text):
                // A check over several columns (or over one whose field is already checked) is the table's.
                let name = check.name ?? "\(table.name)_check" + (entity.checks.isEmpty ? "" : "\(entity.checks.count)")
                entity.checks.append(ImportedCheck(name: name, condition: ImportedSQL(dialect: dialect.rawValue, text: text)))
            }
        }
        return entity
    }

    /// The one column a check names, or nil when it names none or several.
    private static func onlyColumn(of rule: DatabaseSchema.CheckRule, among columns: [String], dialect: SQLDialect)
        -> String?
    {
        if case .allowedValues(let column, _) = rule { return column }
        guard case .expression(let text) = rule,
            let tokens = try? SQLLexer(dialect: dialect.syntax).significantTokens(text)
        else { return nil }
        var named: Set<String> = []
        for token in tokens where token.isName {
            let exact = columns.first { $0 == token.value }
            let folded = token.kind == .word ? columns.first { $0.lowercased() == token.value.lowercased() } : nil
            if let column = exact ?? folded { named.insert(column) }
        }
        return named.count == 1 ? named.first : nil
    }

    /// The case names of a check that allows `column` only text values that are valid case
    /// names (`status IN ('draft', 'placed')`), or nil.
    private static func enumCases(_ rule: DatabaseSchema.CheckRule, column: String) -> [String]? {
        guard case .allowedValues(column, let values) = rule else { return nil }
        let cases = values.compactMap { value -> String? in
            guard value.hasPrefix("'"), value.hasSuffix("'"), value.count >= 2 else { return nil }
            let text = String(value.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
            return SchemaNames.isUsableMemberName(text) ? text : nil
        }
        return cases.count == values.count && Set(cases).count == cases.count ? cases : nil
    }

    /// The field of a column, or nil (with a warning) when it is not imported.
    private mutating func field(
        of column: DatabaseSchema.Column, consumedChecks: inout Set<DatabaseSchema.Check>
    ) -> ImportedField? {
        // A full-text search vector is Strata's `search:`, said so once every field is known.
        if column.searchSources != nil { return nil }
        if let kind = column.generated {
            warnings.append(
                "column \(qualified(column.name)) is a generated column (\(kind)), which Strata does not declare; not imported, and 'migrate --baseline' will name it as a difference"
            )
            return nil
        }
        if let array = arrayField(of: column) { return array }
        let isKey = keyColumns.contains(column.name)
        let reference = self.reference(of: column)
        guard var mapped = ImportedColumnType.of(column.type, dialect: dialect) else {
            warnings.append(
                "column \(qualified(column.name)) is \(column.type), which no Strata type stores; not imported"
                    + (column.isNullable || column.defaultValue != nil
                        ? "" : " (it is NOT NULL without a default: inserts that leave it out fail)"))
            return nil
        }
        // A SQLite Bool is an INTEGER that checks its values are 0 or 1.
        if dialect == .sqlite, mapped.type.isInteger,
            let check = table.checks.first(where: {
                $0.rule == .allowedValues(column: column.name, values: ["0", "1"])
            })
        {
            mapped.type = .bool
            consumedChecks.insert(check)
        }
        // A SQLite column of ISO 8601 dates is a Date stored as that text.
        var dateText: SQLiteDateText?
        // (Not a key: references store a Date key as Strata does, not as the key's text.)
        if dialect == .sqlite, mapped.type == .string, reference == nil, !isKey {
            let declared = column.type.uppercased()
            let saysDate = declared.contains("DATE") || declared.contains("TIME")
            switch context.textDates[table.name]?[column.name] {
            case .dates(let format)?:
                dateText = format
            case .empty? where saysDate:
                dateText = declared.contains("TIME") ? .timestamp : .date
            case .notDates(let example)? where saysDate:
                warnings.append(
                    "column \(qualified(column.name)) is \(column.type), but holds '\(example)', which is no date as 'format: timestamp' ('YYYY-MM-DD HH:MM:SS[.SSS]') or 'format: date' ('YYYY-MM-DD') writes it; imported as String"
                )
            default:
                break
            }
            if dateText != nil { mapped = ImportedColumnType(type: .date) }
        }
        // A String column that checks its values are names is an enum.
        var enumType: ImportedEnum?
        if mapped.type == .string, reference == nil,
            let (check, cases) = table.checks.lazy.compactMap({ check in
                Self.enumCases(check.rule, column: column.name).map { (check, $0) }
            }).first
        {
            let name = ImportedNames.unique(
                (context.entityNames[table.name] ?? "") + ImportedNames.entity(column.name), among: typeNames)
            typeNames.insert(name.lowercased())
            let decl = ImportedEnum(name: name, type: mapped.type.name, cases: cases)
            enums.append(decl)
            enumType = decl
            consumedChecks.insert(check)
        }
        // The type the column stores: a reference's is its key's.
        let keyType = reference.flatMap { target in
            context.tables[target.table]?.column(named: target.column).flatMap {
                ImportedColumnType.of($0.type, dialect: dialect)?.type
            }
        }
        let storedType = keyType ?? mapped.type
        // The column's own declared type, kept with `sqlType` when it stores the values alike.
        let derived = SQLCanonicalForm.typeName(dialect.columnType(storedType.encoding, dateText: dateText), dialect: dialect)
        var sqlType: ImportedSQL?
        if column.type != derived, !column.type.isEmpty,
            dialect.storageProblem(declaredType: column.type, for: storedType.encoding, dateText: dateText) == nil
        {
            sqlType = ImportedSQL(dialect: dialect.rawValue, text: column.type)
        }
        if sqlType == nil, column.type != derived {
            if reference != nil, let keyType, keyType != mapped.type, let target = reference {
                warnings.append(
                    "column \(qualified(column.name)) is \(column.type), but the key it references, '\(target.table).\(target.column)', is \(dialect.columnType(keyType.encoding)): imported as a reference, its column becomes \(derived)"
                )
            } else if let approximation = mapped.approximation {
                warnings.append("column \(qualified(column.name)) \(approximation)")
            }
        }
        if dialect == .sqlite, sqlType != nil, storedType.encoding == .string,
            SQLiteAffinity(declaredType: column.type) == .numeric
        {
            warnings.append(
                "column \(qualified(column.name)) is \(column.type), which SQLite gives NUMERIC affinity: text that reads as a number is stored as one ('1.50' reads back as '1.5'); imported as String with its declared type kept"
            )
        }
        if dialect == .postgres, sqlType != nil, storedType.encoding == .date,
            column.type.hasSuffix("without time zone")
        {
            warnings.append(
                "column \(qualified(column.name)) is \(column.type): Strata reads its values as UTC, and a connection that writes Dates into it must use the time zone UTC (PostgreSQL converts a Date with the session's TimeZone)"
            )
        }
        var field = ImportedField(
            name: ImportedNames.field(reference == nil ? column.name : ImportedNames.referenceColumn(column.name)),
            type: reference.map(\.entity) ?? enumType?.name ?? mapped.type.name,
            isOptional: column.isNullable && !isKey)
        if isKey, column.isNullable, !(dialect == .sqlite && keyColumns.count == 1 && column.type == "INTEGER") {
            warnings.append(
                "column \(qualified(column.name)) is part of the primary key but allows NULL; imported as required")
        }
        field.sqlType = sqlType
        field.format = dateText?.rawValue
        if column.isAutoincrement {
            if keyColumns == [column.name], mapped.type.isInteger, reference == nil {
                field.isAutoincrement = true
            } else {
                warnings.append(
                    "column \(qualified(column.name)) is assigned by the database, but Strata assigns only a single integer primary key; imported as a plain column"
                )
            }
        } else if dialect == .sqlite, keyColumns == [column.name], column.type == "INTEGER", reference == nil,
            mapped.type == .int64
        {
            // SQLite's INTEGER PRIMARY KEY is the rowid: SQLite assigns it when an insert leaves it out.
            field.isAutoincrement = true
            field.isRowidKey = true
        }
        if let value = column.defaultValue {
            let yaml: String?
            if reference != nil {
                yaml = nil
            } else if let decl = enumType {
                yaml = ImportedDefault.text(value, dialect: dialect).flatMap {
                    decl.cases.contains($0) ? YAMLText.key($0) : nil
                }
            } else {
                yaml = ImportedDefault.yaml(value, type: mapped.type, dialect: dialect)
            }
            if let yaml {
                field.defaultValue = yaml
            } else if reference == nil {
                field.sqlDefault = ImportedSQL(dialect: dialect.rawValue, text: value)
            } else {
                warnings.append(
                    "the default of \(qualified(column.name)), \(value), is not a literal Strata can write for \(field.type); not imported"
                )
            }
        }
        if let target = reference {
            // The inverse of Strata's ON DELETE actions; noAction, the default, is not written.
            switch OnDelete.allCases.first(where: { $0.sqlAction == target.onDelete }) {
            case .noAction:
                break
            case .setNull? where !field.isOptional, nil:
                warnings.append(
                    "the foreign key of \(qualified(column.name)) is ON DELETE \(target.onDelete), which Strata cannot declare\(target.onDelete == OnDelete.setNull.sqlAction ? " on a required field" : ""); imported as noAction"
                )
            case let action?:
                field.onDelete = action.rawValue
            }
        }
        return field
    }

    /// The referenced entity, key column and delete action of a column that is a foreign key
    /// Strata can declare: a single column referencing the single-column primary key of an
    /// imported table.
    private func reference(of column: DatabaseSchema.Column) -> (
        entity: String, table: String, column: String, onDelete: String
    )? {
        guard let key = table.foreignKeys.first(where: { $0.columns == [column.name] }),
            let entity = context.entityNames[key.referencedTable],
            let target = context.tables[key.referencedTable], let targetKey = target.primaryKey?.columns,
            targetKey.count == 1, key.referencedColumns == targetKey || key.referencedColumns == [""]
        else { return nil }
        return (entity, key.referencedTable, targetKey[0], key.onDelete)
    }

    /// Single-column unique constraints as `unique: true`; others as unique indexes (said so).
    private mutating func markUniques(_ entity: inout ImportedEntity) {
        for key in table.uniqueConstraints {
            let what = "the unique constraint \(list(key.columns)) of table '\(table.name)'"
            guard let names = fieldNames(key.columns, else: "\(what) names a column that is not imported; not imported")
            else { continue }
            if names.count == 1, let index = entity.fields.firstIndex(where: { $0.name == names[0] }) {
                entity.fields[index].isUnique = true
                continue
            }
            warnings.append(
                "\(what) is imported as a unique index: Strata declares unique constraints on single fields")
            entity.indexes.append(
                ImportedIndex(fields: names, unique: true, name: indexName(key.name, key.columns, true)))
        }
    }

    /// A warning for each constraint Strata declares under another name than the database's
    /// (Strata names them as PostgreSQL does: `<table>_pkey`, `<table>_<column>_key`, `_fkey`).
    private mutating func warnConstraintNames() {
        func check(_ name: String?, _ strata: String, _ what: String) {
            if let name, name != strata {
                warnings.append("\(what) is named '\(name)'; the regenerated one is named '\(strata)'")
            }
        }
        check(
            table.primaryKey?.name, SQLConstraintName.primaryKey(table: table.name),
            "the primary key of table '\(table.name)'")
        for key in table.uniqueConstraints where key.columns.count == 1 && fields[key.columns[0]] != nil {
            check(
                key.name, SQLConstraintName.unique(table: table.name, column: key.columns[0]),
                "the unique constraint of \(qualified(key.columns[0]))")
        }
        for key in table.foreignKeys where key.columns.count == 1 && isReference(key.columns[0]) {
            check(
                key.name, SQLConstraintName.foreignKey(table: table.name, column: key.columns[0]),
                "the foreign key of \(qualified(key.columns[0]))")
        }
    }

    /// True when `column` is imported as a reference.
    private func isReference(_ column: String) -> Bool {
        fields[column] != nil && table.column(named: column).flatMap(reference(of:)) != nil
    }

    /// A warning for each foreign key that is not a reference.
    private mutating func warnForeignKeysNotImported() {
        for key in table.foreignKeys where !(key.columns.count == 1 && isReference(key.columns[0])) {
            warnings.append(
                "the foreign key \(list(key.columns)) of table '\(table.name)' referencing '\(key.referencedTable)' \(list(key.referencedColumns)) is not imported: a Strata reference is one column naming the primary key of an imported table"
            )
        }
    }

    /// A warning for each full-text search vector (`tsvector`) column, naming the `String`
    /// fields of the columns it is built from.
    private mutating func warnSearchVectors(of entity: ImportedEntity) {
        for column in table.columns {
            guard let sources = column.searchSources else { continue }
            let searchable = sources.compactMap { source in
                fields[source].flatMap { name in
                    entity.fields.first { $0.name == name && $0.type == ScalarType.string.name }?.name
                }
            }
            warnings.append(
                ImportedSearchWarning.searchVector(
                    column: column.name, table: table.name, sources: sources, fields: searchable,
                    configuration: column.searchConfiguration))
        }
    }

    /// The indexes whose columns are all imported (an index on search vectors alone, named
    /// with its vector, is left out without a word).
    private mutating func indexes() -> [ImportedIndex] {
        table.indexes.compactMap { index -> ImportedIndex? in
            if !index.columns.isEmpty, index.columns.allSatisfy({ table.column(named: $0)?.searchSources != nil }) {
                return nil
            }
            return fieldNames(
                index.columns,
                else:
                    "the index '\(index.name)' of table '\(table.name)' is on an expression or a column that is not imported; not imported"
            ).map {
                ImportedIndex(
                    fields: $0, unique: index.isUnique, name: indexName(index.name, index.columns, index.isUnique),
                    condition: index.condition.map { ImportedSQL(dialect: dialect.rawValue, text: $0) })
            }
        }
    }

    /// The fields of `columns`, or nil with `warning` when one of them is not imported.
    private mutating func fieldNames(_ columns: [String], else warning: String) -> [String]? {
        let names = columns.compactMap { fields[$0] }
        guard names.count == columns.count else {
            warnings.append(warning)
            return nil
        }
        return names
    }

    /// `name`, unless it is the one Strata derives.
    private func indexName(_ name: String?, _ columns: [String], _ unique: Bool) -> String? {
        guard let name, name != Index.defaultName(table: table.name, columns: columns, isUnique: unique) else {
            return nil
        }
        return name
    }
}
