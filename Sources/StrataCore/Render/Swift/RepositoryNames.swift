/// The Swift names of what the repository renderers generate for a model, derived in one place.
struct RepositoryNames {
    let schema: Schema
    /// How many entities of the model have each plural accessor name (counted once, not per accessor).
    private let pluralCounts: [String: Int]

    /// The names of `schema`'s generated types and members.
    init(schema: Schema) {
        self.schema = schema
        var counts: [String: Int] = [:]
        for entity in schema.entities { counts[Self.plural(Self.lowerCamel(entity.name)), default: 0] += 1 }
        pluralCounts = counts
    }

    /// `MyTODODatabase`: the database type.
    var database: String { SwiftNames.identifier(schema.model + "Database") }
    /// `MyTODOAccess`: every entity's access on one connection.
    var access: String { SwiftNames.identifier(schema.model + "Access") }
    /// `MyTODOMigrations`: the embedded migrations.
    var migrations: String { SwiftNames.identifier(schema.model + "Migrations") }

    /// `MyTODOQueries`: the namespace of the named queries' row types (declared by the rows file,
    /// shared by every database), which holds their SQL on SQLite too.
    var queries: String { SwiftNames.identifier(schema.model + "Queries") }
    /// `MyTODOQueries` on SQLite, `MyTODOPostgresQueries` on PostgreSQL: the enum holding the named
    /// queries' SQL as that database runs it.
    func queries(_ runtime: SwiftRuntime) -> String {
        SwiftNames.identifier(schema.model + runtime.typePrefix + "Queries")
    }

    /// `MyTODOPostgresDatabase`: the database type on another database than SQLite.
    func database(_ runtime: SwiftRuntime) -> String {
        SwiftNames.identifier(schema.model + runtime.typePrefix + "Database")
    }
    /// `MyTODOPostgresAccess`.
    func access(_ runtime: SwiftRuntime) -> String {
        SwiftNames.identifier(schema.model + runtime.typePrefix + "Access")
    }
    /// `MyTODOPostgresMigrations`.
    func migrations(_ runtime: SwiftRuntime) -> String {
        SwiftNames.identifier(schema.model + runtime.typePrefix + "Migrations")
    }

    /// `TODOItem`: the record type.
    func record(_ entity: Entity) -> String { SwiftNames.identifier(entity.name) }

    /// The property of the database and access types that reaches an entity: `todoItems`.
    /// Unique among the model's entities.
    func accessor(_ entity: Entity) -> String {
        let plural = Self.plural(Self.lowerCamel(entity.name))
        let clashes = (pluralCounts[plural] ?? 0) > 1
        return clashes ? Self.lowerCamel(entity.name) + "Records" : plural
    }

    /// `TODOItem` -> `todoItem`, `URLValue` -> `urlValue`, `Order` -> `order`, `ABC` -> `abc`.
    static func lowerCamel(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return asciiLowerCamel(name) }
        let characters = Array(name)
        var upper = 0
        while upper < characters.count, characters[upper].isUppercase { upper += 1 }
        if upper == 0 { return name }
        // In `TODOItem` the last capital starts the next word; in `ABC` or `ABC2` it does not.
        let lowered = upper > 1 && upper < characters.count && characters[upper].isLetter ? upper - 1 : upper
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }

    /// ``lowerCamel(_:)`` of an ASCII name, on its bytes (the same rules: A-Z are the capitals,
    /// A-Z and a-z the letters).
    private static func asciiLowerCamel(_ name: String) -> String {
        var bytes = Array(name.utf8)
        func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        func isLetter(_ byte: UInt8) -> Bool {
            isUpper(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        }
        var upper = 0
        while upper < bytes.count, isUpper(bytes[upper]) { upper += 1 }
        if upper == 0 { return name }
        let lowered = upper > 1 && upper < bytes.count && isLetter(bytes[upper]) ? upper - 1 : upper
        for index in 0..<lowered { bytes[index] += 32 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A simple English plural: `item` -> `items`, `status` -> `statuses`, `category` -> `categories`;
    /// a word already ending in `s` (but not `ss` or `us`) is kept: `keywords`.
    static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("ss") || lower.hasSuffix("us") || lower.hasSuffix("x") || lower.hasSuffix("z")
            || lower.hasSuffix("ch") || lower.hasSuffix("sh")
        {
            return word + "es"
        }
        if lower.hasSuffix("s") { return word }
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
            return word.dropLast() + "ies"
        }
        return word + "s"
    }

    /// A swift-format exemption for a generated member name that is not lowerCamelCase.
    static func lintExemptions(member name: String) -> [String] {
        SwiftNames.isLowerCamelCase(name) ? [] : ["// swift-format-ignore: AlwaysUseLowerCamelCase"]
    }
}
