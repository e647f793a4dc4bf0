/// Checks of one version that need the whole file: names, keys, references, uniqueness of
/// SQL names. Parsing has already checked the shape and types of every value.
enum SchemaValidator {
    /// PostgreSQL truncates longer identifiers, which would make two names collide silently.
    static let maximumIdentifierBytes = 63

    /// Names that cannot be a Swift type even with backticks, or that would shadow a type the generated code uses.
    static let reservedTypeNames: Set<String> =
        Set(ScalarType.allCases.map(\.name)).union([
            "Any", "AnyObject", "Array", "Bool", "Character", "Codable", "Dictionary", "Equatable", "Error",
            "Foundation", "Hashable", "Identifiable", "Never", "Optional", "Protocol", "Self", "Sendable", "Set",
            "Type", "GRDB", "StrataRuntime", "StrataSQLite", "StrataPostgres", "PostgresNIO", "Database", "Row", "Statement",
        ])

    /// Names that cannot be a Swift property or case even with backticks.
    static let reservedMemberNames: Set<String> = ["_", "self", "Self", "init", "deinit", "subscript", "Type", "Protocol"]

    static func validate(_ schema: Schema) -> [Diagnostic] {
        var bag = DiagnosticBag()
        checkTypeNames(schema, &bag)
        for decl in schema.enums { checkEnum(decl, &bag) }
        // The entity name of each table (lowercased), and where each index name is declared.
        var tables: [String: String] = [:]
        tables.reserveCapacity(schema.entities.count)
        var indexNames: [String: SourceLocation] = [:]
        // PostgreSQL keeps tables and indexes in one namespace, and a primary key or a unique
        // constraint is an index too, named like this: no table or index may take these names.
        var constraintIndexes: [String: ConstraintIndex] = [:]
        constraintIndexes.reserveCapacity(schema.entities.count)
        for entity in schema.entities {
            constraintIndexes[SQLConstraintName.primaryKey(table: entity.table).lowercased()] =
                ConstraintIndex(entity: entity.name, uniqueField: nil)
            for field in entity.fields where field.isUnique {
                constraintIndexes[SQLConstraintName.unique(table: entity.table, column: field.column).lowercased()] =
                    ConstraintIndex(entity: entity.name, uniqueField: field.name)
            }
        }
        // Each index's lowercased name, computed once, entity by entity.
        var loweredIndexNames: [[String]] = []
        loweredIndexNames.reserveCapacity(schema.entities.count)
        for entity in schema.entities {
            checkEntity(entity, in: schema, &bag)
            checkSQLName(entity.table, "table name", at: entity.location, &bag)
            checkNotSQLiteInternal(entity.table, "table name", at: entity.location, &bag)
            let table = entity.table.lowercased()
            if let constraint = constraintIndexes[table] {
                bag.error("table '\(entity.table)' has the name PostgreSQL gives \(constraint); choose another table name", at: entity.location)
            }
            if let other = tables[table] {
                bag.error(
                    "entity '\(entity.name)' uses table '\(entity.table)', which entity '\(other)' already uses (SQL names are case-insensitive)",
                    at: entity.location)
            } else {
                tables[table] = entity.name
            }
            var lowered: [String] = []
            lowered.reserveCapacity(entity.indexes.count)
            for index in entity.indexes {
                checkSQLName(index.name, "index name", at: index.location, &bag)
                // A derived name starts with the table's, reported once with the table.
                if index.hasExplicitName { checkNotSQLiteInternal(index.name, "index name", at: index.location, &bag) }
                let name = index.name.lowercased()
                lowered.append(name)
                if let constraint = constraintIndexes[name] {
                    bag.error(
                        "index '\(index.name)' has the name PostgreSQL gives \(constraint); "
                            + (index.hasExplicitName ? "choose another name" : "the index repeats it: remove the index, or give it a name"),
                        at: index.location)
                }
                if indexNames[name] != nil {
                    bag.error("index name '\(index.name)' is already used; index names are shared by all tables", at: index.location)
                } else {
                    indexNames[name] = index.location
                }
            }
            loweredIndexNames.append(lowered)
        }
        checkSearchNames(of: schema, tables: tables, indexNames: indexNames, &bag)
        for (entity, lowered) in zip(schema.entities, loweredIndexNames) {
            for (index, name) in zip(entity.indexes, lowered) {
                if let owner = tables[name] {
                    bag.error(
                        "index '\(index.name)' has the name of the table of '\(owner)'; PostgreSQL keeps tables and indexes in one namespace",
                        at: index.location)
                }
            }
        }
        return bag.all
    }

    /// What a primary key or unique constraint's index belongs to, described when it is reported.
    private struct ConstraintIndex: CustomStringConvertible {
        var entity: String
        /// The field of a single-column unique constraint; nil for the primary key.
        var uniqueField: String?

        var description: String {
            guard let uniqueField else { return "the primary key of '\(entity)'" }
            return "the unique constraint of '\(entity).\(uniqueField)' (unique: true)"
        }
    }

    /// True for ASCII letters, digits and `_`, not starting with a digit. Only ASCII is
    /// accepted, so the UTF-8 bytes answer: any other byte (part of a non-ASCII scalar) fails.
    static func isSwiftIdentifier(_ name: String) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }
        var bytes = name.utf8.makeIterator()
        guard let first = bytes.next(), first == UInt8(ascii: "_") || isLetter(first) else { return false }
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "_") || isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                return false
            }
        }
        return true
    }

    private static func checkIdentifier(_ name: String, _ what: String, at location: SourceLocation, member: Bool, _ bag: inout DiagnosticBag) {
        if !isSwiftIdentifier(name) {
            bag.error("\(what) '\(name)' is not a valid name: use letters, digits and '_', starting with a letter or '_' (set 'table' or 'column' for any SQL name)", at: location)
        } else if member ? isReservedMemberName(name) : reservedTypeNames.contains(name) {
            bag.error("\(what) '\(name)' is reserved in the generated Swift; choose another name", at: location)
        }
    }

    /// `reservedMemberNames.contains(name)`, looked up only for names of their lengths (most
    /// field names are not).
    private static func isReservedMemberName(_ name: String) -> Bool {
        switch name.utf8.count {
        case 1, 4, 6, 8, 9: return reservedMemberNames.contains(name)
        default: return false
        }
    }

    private static func checkSQLName(_ name: String, _ what: String, at location: SourceLocation, _ bag: inout DiagnosticBag) {
        if name.utf8.count > maximumIdentifierBytes {
            bag.error("\(what) '\(name)' is \(name.utf8.count) bytes long; PostgreSQL allows at most \(maximumIdentifierBytes)", at: location)
        }
        if name.utf8.contains(0) {
            bag.error("\(what) contains a NUL character, which no database accepts", at: location)
        }
    }

    /// SQLite keeps names starting with `sqlite_` for its own tables and indexes.
    private static func checkNotSQLiteInternal(_ name: String, _ what: String, at location: SourceLocation, _ bag: inout DiagnosticBag) {
        if hasSQLitePrefix(name) {
            bag.error("\(what) '\(name)' starts with 'sqlite_', which SQLite reserves for its own objects", at: location)
        }
    }

    /// `name.lowercased().hasPrefix("sqlite_")`, answered on the bytes for ASCII names.
    private static func hasSQLitePrefix(_ name: String) -> Bool {
        let prefix = "sqlite_".utf8
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return name.lowercased().hasPrefix("sqlite_") }
        guard name.utf8.count >= prefix.count else { return false }
        return zip(name.utf8, prefix).allSatisfy { byte, expected in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == expected : byte == expected
        }
    }

    /// The Swift types generated for the model besides the entities and enums themselves, each
    /// with what it is (the names `RepositoryNames` gives them).
    private static func generatedTypeNames(_ schema: Schema) -> [String: String] {
        [
            schema.model + "Access": "the generated access type of model '\(schema.model)'",
            schema.model + "Migrations": "the generated migrations of model '\(schema.model)'",
            // The generic parameter and associated types that generated record code names.
            "Record": "the record type parameter of the runtime's record stores",
            "Key": "an associated type of the runtime's record protocol",
            "Columns": "a type alias of the runtime's record protocol",
        ]
    }

    private static func checkTypeNames(_ schema: Schema, _ bag: inout DiagnosticBag) {
        let generated = generatedTypeNames(schema)
        for decl in schema.enums {
            checkIdentifier(decl.name, "enum name", at: decl.location, member: false, &bag)
            if schema.hasEntity(named: decl.name) {
                bag.error("'\(decl.name)' is declared both as an enum and as an entity", at: decl.location)
            }
            if let what = generated[decl.name] {
                bag.error("enum name '\(decl.name)' is the name of \(what); choose another name", at: decl.location)
            }
        }
        let databaseName = schema.model + "Database"
        // By index: only the name and location are read.
        for index in schema.entities.indices {
            let name = schema.entities[index].name
            let location = schema.entities[index].location
            checkIdentifier(name, "entity name", at: location, member: false, &bag)
            if name == databaseName {
                bag.error("entity name '\(name)' is the name of the generated database type", at: location)
            }
            if let what = generated[name] {
                bag.error("entity name '\(name)' is the name of \(what); choose another name", at: location)
            }
        }
    }

    private static func checkEnum(_ decl: EnumDecl, _ bag: inout DiagnosticBag) {
        var names: Set<String> = []
        var rawValues: [Literal: String] = [:]
        for item in decl.cases {
            checkIdentifier(item.name, "case name", at: item.location, member: true, &bag)
            if !names.insert(item.name).inserted {
                bag.error("duplicate case '\(item.name)' in enum '\(decl.name)'", at: item.location)
                continue
            }
            if let other = rawValues[item.rawValue] {
                bag.error("case '\(item.name)' has raw value \(item.rawValue), which case '\(other)' already has", at: item.location)
            } else {
                rawValues[item.rawValue] = item.name
            }
        }
    }

    private static func checkEntity(_ entity: Entity, in schema: Schema, _ bag: inout DiagnosticBag) {
        // The field name of each column (lowercased), kept only when two columns may be the same.
        let columnsMayRepeat = mayRepeatIgnoringCase(entity.fields)
        var columns: [String: String] = [:]
        for field in entity.fields {
            checkIdentifier(field.name, "field name", at: field.location, member: true, &bag)
            checkSQLName(field.column, "column name", at: field.location, &bag)
            if columnsMayRepeat {
                let column = field.column.lowercased()
                if let other = columns[column] {
                    bag.error(
                        "field '\(field.name)' uses column '\(field.column)', which field '\(other)' already uses (SQL names are case-insensitive)",
                        at: field.location)
                } else {
                    columns[column] = field.name
                }
            }
            for item in entity.hasMany where item.name == field.name {
                bag.error("hasMany '\(item.name)' has the name of a field of '\(entity.name)'", at: item.location)
            }
            checkField(field, of: entity, in: schema, &bag)
        }
        for name in entity.primaryKey {
            guard let field = entity.field(named: name) else { continue }
            if field.isOptional {
                bag.error("primary key field '\(name)' cannot be optional", at: field.typeLocation)
            }
            if field.type.arrayElement != nil {
                bag.error("primary key field '\(name)' cannot be an array (\(field.type))", at: field.typeLocation)
            }
        }
        for item in entity.hasMany { checkHasMany(item, of: entity, in: schema, &bag) }
    }

    /// False when no two of the fields' columns are the same lowercased: their ASCII bytes,
    /// lowercased, hash (FNV-1a) differently. True when two hashes are equal or a column is not
    /// ASCII (then the columns are compared as strings).
    private static func mayRepeatIgnoringCase(_ fields: [Field]) -> Bool {
        guard fields.count > 1 else { return false }
        var hashes: [UInt64] = []
        hashes.reserveCapacity(fields.count)
        // By index: copying each field out would retain all it holds.
        for index in fields.indices {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in fields[index].column.utf8 {
                guard byte < 0x80 else { return true }
                let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
                hash = (hash ^ UInt64(lower)) &* 0x0000_0100_0000_01b3
            }
            hashes.append(hash)
        }
        hashes.sort()
        return zip(hashes, hashes.dropFirst()).contains { $0 == $1 }
    }

    private static func checkField(_ field: Field, of entity: Entity, in schema: Schema, _ bag: inout DiagnosticBag) {
        if case .string(let text) = field.defaultValue, text.utf8.contains(0) {
            bag.error(
                "the default of '\(field.name)' contains a NUL character, which PostgreSQL text cannot hold",
                at: field.defaultLocation ?? field.location)
        }
        checkDeclaredColumn(field, in: schema, &bag)
        if let location = field.dateTextLocation, entity.primaryKey.contains(field.name) {
            // References store a key as its type does (a REAL for a Date), not as the key's text.
            bag.error(
                "'format' of '\(field.name)': a key of '\(entity.name)' cannot be stored as text, since references to it store a Date as Strata does; remove 'format' or key the entity otherwise",
                at: location)
        }
        if field.isAutoincrement {
            if case .scalar(let type) = field.type, type.isInteger {
                if entity.primaryKey != [field.name] {
                    bag.error("'autoincrement' needs '\(field.name)' to be the whole primary key of '\(entity.name)'", at: field.location)
                }
                if field.defaultValue != nil || field.sqlDefault != nil {
                    bag.error("'\(field.name)' is assigned by the database ('autoincrement') and cannot have a default", at: field.defaultLocation ?? field.location)
                }
            } else {
                bag.error("'autoincrement' needs an integer type; '\(field.name)' is \(field.type)", at: field.typeLocation)
            }
        }
        // The target is read in place (not copied out).
        guard case .reference(let targetName) = field.type, let target = schema.entityIndex(named: targetName) else {
            return
        }
        let keyCount = schema.entities[target].primaryKey.count
        if keyCount != 1 {
            bag.error(
                "'\(field.name)' references '\(targetName)', whose primary key has \(keyCount) fields; a reference needs a single-field key",
                at: field.typeLocation)
        } else if schema.entities[target].singlePrimaryKey?.referencedEntity != nil {
            bag.error("'\(field.name)' references '\(targetName)', whose primary key is itself a reference", at: field.typeLocation)
        }
        if field.onDelete == .setNull && !field.isOptional {
            bag.error("onDelete: setNull needs '\(field.name)' to be optional (write '\(targetName)?')", at: field.location)
        }
    }

    private static func checkHasMany(_ item: HasMany, of entity: Entity, in schema: Schema, _ bag: inout DiagnosticBag) {
        checkIdentifier(item.name, "hasMany name", at: item.location, member: true, &bag)
        guard let target = schema.entityIndex(named: item.entity) else {
            bag.error(
                "hasMany '\(item.name)' names unknown entity '\(item.entity)'"
                    + Suggestion.didYouMean(item.entity, in: schema.entities.map(\.name)), at: item.entityLocation)
            return
        }
        if let through = item.through {
            let at = item.throughLocation ?? item.location
            guard let join = schema.entity(named: through) else {
                bag.error(
                    "hasMany '\(item.name)' goes through unknown entity '\(through)'"
                        + Suggestion.didYouMean(through, in: schema.entities.map(\.name)), at: at)
                return
            }
            if entity.singlePrimaryKey == nil || schema.entities[target].singlePrimaryKey == nil {
                bag.error("hasMany '\(item.name)': a many-to-many needs '\(entity.name)' and '\(item.entity)' to have a single key field", at: item.location)
            } else if schema.link(of: item, from: entity) == nil {
                let from = item.via.isEmpty ? "one field referencing '\(entity.name)'" : "'\(item.via)' referencing '\(entity.name)'"
                bag.error(
                    "hasMany '\(item.name)': '\(join.name)' needs \(from) and one other field referencing '\(item.entity)'"
                        + (item.via.isEmpty ? "; name the first with 'via'" : ""), at: at)
            }
            return
        }
        guard let via = schema.entities[target].field(named: item.via) else {
            bag.error(
                "hasMany '\(item.name)': '\(item.entity)' has no field '\(item.via)'"
                    + Suggestion.didYouMean(item.via, in: schema.entities[target].fields.map(\.name)), at: item.viaLocation)
            return
        }
        if via.referencedEntity != entity.name {
            bag.error("hasMany '\(item.name)': '\(item.entity).\(item.via)' does not reference '\(entity.name)'", at: item.viaLocation)
        }
    }
}
