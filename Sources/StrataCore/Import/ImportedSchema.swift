/// A version file an importer writes, before it is text: entities, fields and the migration
/// block, in the order they are written. ``yaml`` renders it deterministically.
public struct ImportedSchema: Sendable, Equatable {
    /// The model's name.
    public var model: String
    /// The version number (the N of `vN.yaml`).
    public var version: Int
    /// Comment lines at the top of the file (without `# `).
    public var header: [String]
    /// The enums, in order.
    public var enums: [ImportedEnum] = []
    /// The entities, in order.
    public var entities: [ImportedEntity]
    /// `migration.allowDataLoss`.
    public var allowDataLoss: [String]
    /// A comment above `allowDataLoss` (without `# `).
    public var allowDataLossComment: String?

    /// Creates a version file.
    public init(
        model: String, version: Int, header: [String] = [], entities: [ImportedEntity] = [],
        allowDataLoss: [String] = [],
        allowDataLossComment: String? = nil
    ) {
        self.model = model
        self.version = version
        self.header = header
        self.entities = entities
        self.allowDataLoss = allowDataLoss
        self.allowDataLossComment = allowDataLossComment
    }

    /// The entity named `name`.
    public func entity(named name: String) -> ImportedEntity? { entities.first { $0.name == name } }

    /// The text of the version file.
    public var yaml: String {
        var lines = header.map { "# " + $0 }
        lines += ["model: \(YAMLText.key(model))", "version: \(version)", ""]
        if !enums.isEmpty {
            lines.append("enums:")
            for decl in enums {
                lines += [
                    "  \(YAMLText.key(decl.name)):", "    type: \(decl.type)",
                    "    cases: [\(decl.cases.map(YAMLText.key).joined(separator: ", "))]", "",
                ]
            }
        }
        lines.append("entities:")
        for (offset, entity) in entities.enumerated() {
            if offset > 0 { lines.append("") }
            lines += entity.yamlLines
        }
        if !allowDataLoss.isEmpty {
            lines += ["", "migration:"]
            if let comment = allowDataLossComment { lines.append("  # " + comment) }
            lines.append("  allowDataLoss: [\(allowDataLoss.map(YAMLText.key).joined(separator: ", "))]")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A `String` enum of an ``ImportedSchema``, whose raw values are its case names.
public struct ImportedEnum: Sendable, Equatable {
    /// The enum's name.
    public var name: String
    /// The raw type (`String`).
    public var type: String
    /// The case names, in order.
    public var cases: [String]

    /// Creates an enum.
    public init(name: String, type: String, cases: [String]) {
        self.name = name
        self.type = type
        self.cases = cases
    }
}

/// An entity of an ``ImportedSchema``.
public struct ImportedEntity: Sendable, Equatable {
    /// The entity's name.
    public var name: String
    /// `doc`.
    public var doc: String?
    /// `renamedFrom`.
    public var renamedFrom: String?
    /// `table`, when the table's name is not the one `naming` derives from the entity's.
    public var table: String?
    /// `primaryKey`, when it is not the field named `id` (a composite key).
    public var primaryKey: [String]?
    /// The fields, in order.
    public var fields: [ImportedField]
    /// The indexes, in order.
    public var indexes: [ImportedIndex]
    /// `hasMany`: accessor name, entity, via.
    public var hasMany: [ImportedHasMany]
    /// `checks`: each constraint's name and condition.
    public var checks: [ImportedCheck] = []

    /// Creates an entity.
    public init(name: String, doc: String? = nil, fields: [ImportedField] = []) {
        self.name = name
        self.doc = doc
        self.fields = fields
        self.indexes = []
        self.hasMany = []
    }

    /// The field named `name`.
    public func field(named name: String) -> ImportedField? { fields.first { $0.name == name } }

    var yamlLines: [String] {
        var lines = ["  \(YAMLText.key(name)):"]
        if let doc { lines.append("    doc: \(YAMLText.string(doc))") }
        if let renamedFrom { lines.append("    renamedFrom: \(YAMLText.key(renamedFrom))") }
        if let table { lines.append("    table: \(YAMLText.key(table))") }
        if let primaryKey { lines.append("    primaryKey: [\(primaryKey.map(YAMLText.key).joined(separator: ", "))]") }
        lines.append("    fields:")
        lines += fields.map { "      \(YAMLText.key($0.name)): \($0.yaml)" }
        if !indexes.isEmpty {
            lines.append("    indexes:")
            lines += indexes.map { index in
                let fields = "[\(index.fields.map(YAMLText.key).joined(separator: ", "))]"
                var options = ["fields: \(fields)"]
                if index.unique { options.append("unique: true") }
                if let name = index.name { options.append("name: \(YAMLText.key(name))") }
                if let condition = index.condition { options.append("where: \(condition.yaml)") }
                return options.count == 1 ? "      - \(fields)" : "      - { \(options.joined(separator: ", ")) }"
            }
        }
        if !checks.isEmpty {
            lines.append("    checks:")
            lines += checks.map { "      \(YAMLText.key($0.name)): \($0.condition.yaml)" }
        }
        if !hasMany.isEmpty {
            lines.append("    hasMany:")
            lines += hasMany.map {
                let through = $0.through.map { ", through: \(YAMLText.key($0))" } ?? ""
                return "      \(YAMLText.key($0.name)): { entity: \(YAMLText.key($0.entity))\(through), via: \(YAMLText.key($0.via)) }"
            }
        }
        return lines
    }
}

/// A field of an ``ImportedEntity``.
public struct ImportedField: Sendable, Equatable {
    /// The field's name.
    public var name: String
    /// The schema type, without `?`.
    public var type: String
    /// `T?`.
    public var isOptional: Bool
    /// `default`, as YAML text (already quoted where needed).
    public var defaultValue: String?
    /// `primaryKey: true`.
    public var isPrimaryKey = false
    /// `autoincrement: true`.
    public var isAutoincrement = false
    /// `autoincrement: rowid` (with `isAutoincrement`).
    public var isRowidKey = false
    /// `unique: true`.
    public var isUnique = false
    /// `onDelete`.
    public var onDelete: String?
    /// `column`, when the column's name is not the one `naming` derives from the field's.
    public var column: String?
    /// `renamedFrom`.
    public var renamedFrom: String?
    /// `doc`.
    public var doc: String?
    /// `sqlType`, for the one dialect the field was read from.
    public var sqlType: ImportedSQL?
    /// `default` as a SQL expression (`{ sqlite: … }`), when the default is not a literal.
    public var sqlDefault: ImportedSQL?
    /// `check`.
    public var check: ImportedSQL?
    /// `format` of a Date stored as ISO 8601 text (`timestamp`, `date`).
    public var format: String?

    /// Creates a field.
    public init(name: String, type: String, isOptional: Bool = false, defaultValue: String? = nil) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
    }

    var yaml: String {
        let type = YAMLText.key(self.type + (isOptional ? "?" : ""))
        var options: [String] = []
        if let defaultValue { options.append("default: \(defaultValue)") }
        if let sqlDefault { options.append("default: \(sqlDefault.yaml)") }
        if let format { options.append("format: \(format)") }
        if let sqlType { options.append("sqlType: \(sqlType.yaml)") }
        if isPrimaryKey { options.append("primaryKey: true") }
        if isAutoincrement { options.append(isRowidKey ? "autoincrement: rowid" : "autoincrement: true") }
        if isUnique { options.append("unique: true") }
        if let onDelete { options.append("onDelete: \(onDelete)") }
        if let column { options.append("column: \(YAMLText.key(column))") }
        if let check { options.append("check: \(check.yaml)") }
        if let renamedFrom { options.append("renamedFrom: \(YAMLText.key(renamedFrom))") }
        if let doc { options.append("doc: \(YAMLText.string(doc))") }
        return options.isEmpty ? type : "{ type: \(type), \(options.joined(separator: ", ")) }"
    }
}

/// An index of an ``ImportedEntity``.
public struct ImportedIndex: Sendable, Equatable {
    /// The indexed fields, in order.
    public var fields: [String]
    /// A unique index.
    public var unique: Bool
    /// `name`, when it is not the name Strata derives (``Index/defaultName(table:columns:isUnique:)``).
    public var name: String?
    /// `where`: the condition of a partial index.
    public var condition: ImportedSQL?

    /// Creates an index.
    public init(fields: [String], unique: Bool, name: String? = nil, condition: ImportedSQL? = nil) {
        self.fields = fields
        self.unique = unique
        self.name = name
        self.condition = condition
    }
}

/// A `hasMany` accessor of an ``ImportedEntity``.
public struct ImportedHasMany: Sendable, Equatable {
    /// The accessor's name.
    public var name: String
    /// The entity whose field references this one (or, with `through`, the entity linked to).
    public var entity: String
    /// That field; with `through`, the join entity's field that references this one.
    public var via: String
    /// For a many-to-many: the join entity whose rows link this entity to `entity`.
    public var through: String?

    /// Creates an accessor.
    public init(name: String, entity: String, via: String, through: String? = nil) {
        self.name = name
        self.entity = entity
        self.via = via
        self.through = through
    }
}

/// YAML scalars as importers write them.
public enum YAMLText {
    /// A name: plain unless YAML would read it as something other than that string.
    public static func key(_ name: String) -> String {
        let plain = name.unicodeScalars.allSatisfy {
            ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "." || $0 == "?")
                && $0.isASCII
        }
        let ambiguous = ["y", "yes", "n", "no", "true", "false", "on", "off", "null"].contains(name.lowercased())
        return plain && !name.isEmpty && !ambiguous && !(name.first?.isNumber ?? true) ? name : string(name)
    }

    /// A double-quoted string: a JSON string literal is one.
    public static func string(_ text: String) -> String { DiagnosticJSON.quoted(text) }
}

/// A table check of an ``ImportedEntity``: `checks: { name: condition }`.
public struct ImportedCheck: Sendable, Equatable {
    /// The constraint's name.
    public var name: String
    /// Its condition.
    public var condition: ImportedSQL

    /// Creates a check.
    public init(name: String, condition: ImportedSQL) {
        self.name = name
        self.condition = condition
    }
}

/// SQL an importer read from one database, written as `{ sqlite: … }` or `{ postgres: … }`.
public struct ImportedSQL: Sendable, Equatable {
    /// The key of the dialect it was read from: `sqlite` or `postgres`.
    public var dialect: String
    /// The SQL text.
    public var text: String

    /// Creates a fragment.
    public init(dialect: String, text: String) {
        self.dialect = dialect
        self.text = text
    }

    var yaml: String { "{ \(dialect): \(YAMLText.string(text)) }" }
}
