import Foundation
import StrataCore
import StrataStorage

/// Deterministic rows for every table of a version: a few hundred per table, fitting each column's
/// type, keys, uniqueness, enum checks and references (referenced tables are filled first).
public struct RowSeeder: Sendable {
    /// Rows per table.
    public var rowsPerTable: Int
    /// The seed of the pseudo-random values.
    public var seed: UInt64

    /// A seeder.
    public init(rowsPerTable: Int = 200, seed: UInt64 = 0x5EED) {
        self.rowsPerTable = rowsPerTable
        self.seed = seed
    }

    /// INSERT statements filling every table of `schema`, in an order where references resolve.
    public func inserts(for schema: Schema, dialect: SQLDialect) -> [String] {
        var generator = SplitMix64(seed: seed)
        var keys: [String: [SQLValue]] = [:]
        var statements: [String] = []
        for entity in Self.dependencyOrder(schema) {
            var values: [[SQLValue]] = []
            var entityKeys: [SQLValue] = []
            let fields = entity.fields.filter { !$0.isAutoincrement }
            for row in 0..<rowsPerTable {
                var rowValues: [SQLValue] = []
                for field in fields {
                    rowValues.append(value(for: field, row: row, entity: entity, schema: schema, dialect: dialect, keys: keys, generator: &generator))
                }
                if let key = entity.singlePrimaryKey {
                    if key.isAutoincrement {
                        entityKeys.append(.integer(Int64(row + 1)))
                    } else if let index = fields.firstIndex(of: key) {
                        entityKeys.append(rowValues[index])
                    }
                }
                values.append(rowValues)
            }
            keys[entity.name] = entityKeys
            let renderer = DDLRenderer(dialect: dialect)
            let columns = fields.map { renderer.column($0.column) }.joined(separator: ", ")
            for chunk in stride(from: 0, to: values.count, by: 50) {
                let rows = values[chunk..<min(chunk + 50, values.count)].map { row in
                    "(" + row.map(dialect.literal).joined(separator: ", ") + ")"
                }
                statements.append("INSERT INTO \(renderer.column(entity.table)) (\(columns)) VALUES\n" + rows.joined(separator: ",\n"))
            }
        }
        return statements
    }

    /// Entities with the ones they reference first (self-references and cycles keep declaration order).
    static func dependencyOrder(_ schema: Schema) -> [Entity] {
        var remaining = schema.entities
        var done: Set<String> = []
        var ordered: [Entity] = []
        while !remaining.isEmpty {
            let index =
                remaining.firstIndex { entity in
                    entity.fields.allSatisfy { field in
                        guard let target = field.referencedEntity, target != entity.name else { return true }
                        return done.contains(target)
                    }
                } ?? remaining.startIndex
            let entity = remaining.remove(at: index)
            ordered.append(entity)
            done.insert(entity.name)
        }
        return ordered
    }

    private func value(
        for field: Field, row: Int, entity: Entity, schema: Schema, dialect: SQLDialect, keys: [String: [SQLValue]],
        generator: inout SplitMix64
    ) -> SQLValue {
        let isKey = entity.primaryKey.contains(field.name)
        if field.isOptional && !isKey && row % 4 == 3 { return .null }
        let encoding = schema.columnEncoding(of: field)
        let stored = { (literal: Literal) in dialect.storedValue(of: literal, as: encoding) ?? .null }
        // A field with a check of its own (SQL the seeder cannot read) gets its default, which
        // the check is expected to allow.
        if field.check != nil, let literal = field.defaultValue { return stored(literal) }
        switch field.type {
        case .array:
            return dialect.rules.arrayValue(arrayElements(for: field, row: row, schema: schema))
        case .reference(let target):
            let candidates = keys[target] ?? []
            if candidates.isEmpty { return .null }
            return candidates[(row * 7 + 3) % candidates.count]
        case .enumeration(let name):
            guard let decl = schema.enumDecl(named: name), !decl.cases.isEmpty else { return .null }
            return stored(decl.cases[(row + Int(generator.next() % 3)) % decl.cases.count].rawValue)
        case .value(let name) where schema.valueType(named: name)?.isJSON == true:
            guard let decl = schema.valueType(named: name) else { return .null }
            return .text(StrataJSONWriter.text(of: json(of: decl, row: row, schema: schema, depth: 0, generator: &generator)))
        case .scalar, .value:
            guard let type = schema.storageType(of: field) else { return .null }
            switch type {
            case .string:
                return .text("\(field.name) \(row) – it's “quoted”")
            case .int, .int64:
                return .integer(Int64(row) * 1_000_003 - 7)
            case .int32:
                return .integer(Int64(row) * 1_009 - 100_000)
            case .int16:
                return .integer(Int64(row) - 100)
            case .double, .float:
                return .real(Double(row) + 0.25 + Double(generator.next() % 4) / 2)
            case .bool:
                return stored(.bool(row % 2 == 0))
            case .uuid:
                let uuid = UUID(uuid: generator.uuidBytes(row: row))
                return stored(.string(uuid.uuidString))
            case .date:
                let date = Date(timeIntervalSince1970: 1_600_000_000 + Double(row) * 3_600 + Double(generator.next() % 60))
                if let dateText = field.dateText { return dialect.rules.stored(date, as: dateText) }
                return stored(.string(ISO8601DateFormatter().string(from: date)))
            case .data:
                return .blob((0..<8).map { UInt8(truncatingIfNeeded: generator.next() &+ UInt64($0)) } + [UInt8(row & 0xFF), UInt8(row >> 8)])
            case .decimal:
                return stored(.string("\(row).\(generator.next() % 100)"))
            case .url:
                return .text("https://example.com/\(field.name)/\(row)?q=\(generator.next() % 100)#top")
            case .json:
                return .text(#"{"row": \#(row), "note": "it's \"quoted\" – ünïcode", "list": [1, 2.5, true, null]}"#)
            }
        }
    }

    /// A stored object of a JSON value type, as the runtime writes one: every member, an optional
    /// one left out on some rows, arrays of two elements, nested types to a few levels.
    private func json(of decl: ValueTypeDecl, row: Int, schema: Schema, depth: Int, generator: inout SplitMix64) -> StrataJSON {
        var members: [(key: String, value: StrataJSON)] = []
        for member in decl.members ?? [] {
            if member.isOptional && (row + member.name.count) % 3 == 0 { continue }
            func element(_ offset: Int) -> StrataJSON {
                json(of: member, row: row + offset, schema: schema, depth: depth, generator: &generator)
            }
            members.append((member.name, member.isArray ? .array([element(0), element(1)]) : element(0)))
        }
        return .object(StrataJSONObject(members))
    }

    private func json(of member: JSONMember, row: Int, schema: Schema, depth: Int, generator: inout SplitMix64) -> StrataJSON {
        switch member.type {
        case .enumeration(let name):
            guard let decl = schema.enumDecl(named: name), !decl.cases.isEmpty else { return .null }
            switch decl.cases[(row + Int(generator.next() % 3)) % decl.cases.count].rawValue {
            case .string(let text): return .string(text)
            case .integer(let value): return .integer(value)
            default: return .null
            }
        case .value(let name) where schema.valueType(named: name)?.isJSON == true:
            guard depth < 3, let decl = schema.valueType(named: name) else { return .object(StrataJSONObject()) }
            return json(of: decl, row: row, schema: schema, depth: depth + 1, generator: &generator)
        default:
            switch schema.storageType(of: member.asField) ?? .string {
            case .string, .decimal, .data, .json: return .string("\(member.name) \(row) – it's “quoted” \\ \"")
            case .int, .int64: return .integer(Int64(row) * 1_000_003 - 7)
            case .int32: return .integer(Int64(row) * 1_009 - 100_000)
            case .int16: return .integer(Int64(row) - 100)
            case .double, .float: return .double(Double(row) + 0.25 + Double(generator.next() % 4) / 2)
            case .bool: return .bool(row % 2 == 0)
            case .uuid: return .string(UUID(uuid: generator.uuidBytes(row: row)).uuidString)
            case .date:
                let date = Date(timeIntervalSince1970: 1_600_000_000 + Double(row) * 3_600 + Double(generator.next() % 60))
                return .string(SQLiteDateText.timestamp.text(of: date) ?? "2020-09-13 12:26:40")
            case .url: return .string("https://example.com/\(member.name)/\(row)")
            }
        }
    }
}

extension RowSeeder {
    /// The elements of an array field's seeded value: none in every third row, else one to three,
    /// text with quotes, a backslash and characters outside ASCII, dates with fractions of a
    /// second, decimals of more digits than a Double holds, bytes with zero bytes.
    func arrayElements(for field: Field, row: Int, schema: Schema) -> [ArrayElementLiteral] {
        let count = row % 3 == 0 ? 0 : row % 3 + (row % 5 == 4 ? 1 : 0)
        if case .array(.enumeration(let name)) = field.type {
            guard let decl = schema.enumDecl(named: name), !decl.cases.isEmpty else { return [] }
            return (0..<count).map { index in
                switch decl.cases[(row + index) % decl.cases.count].rawValue {
                case .integer(let value): return .integer(value)
                case let literal: return .text(Self.rawText(literal))
                }
            }
        }
        guard let storage = schema.arrayElementStorage(of: field) else { return [] }
        return (0..<count).map { index in
            let n = row * 3 + index
            switch storage {
            case .int, .int64: return .integer(Int64(n) * 1_000_003 - 7)
            case .int32: return .integer(Int64(n) * 1_009 - 100_000)
            case .int16: return .integer(Int64(n % 30_000) - 100)
            case .double, .float: return .real(Double(n) + 0.25)
            case .bool: return .bool(n % 2 == 0)
            case .uuid:
                var generator = SplitMix64(seed: UInt64(n))
                return .text(UUID(uuid: generator.uuidBytes(row: n)).uuidString)
            case .url: return .text("https://example.com/\(field.name)/\(n)")
            case .date:
                // Milliseconds and a quarter of one: whole microseconds, which both databases keep.
                return .date(Date(timeIntervalSinceReferenceDate: 600_000_000 + Double(n) * 3_600 + Double(n % 1_000) / 1_000 + 0.000_25))
            case .decimal:
                // 33 significant digits, signed: more than a Double holds.
                let fraction = String(n % 1_000_000)
                return .decimal((n % 2 == 0 ? "" : "-") + "12345678901234567890." + String(repeating: "0", count: 6 - fraction.count) + fraction + "1234567")
            case .data: return .data([0, UInt8(truncatingIfNeeded: n), 0, UInt8(truncatingIfNeeded: n >> 8), 0xFF])
            case .string, .json: return .text("\(field.name) \(n) – it's “quoted”, \\ \"too\"")
            }
        }
    }

    /// A string raw value's text.
    private static func rawText(_ literal: Literal) -> String {
        if case .string(let text) = literal { return text }
        return literal.description
    }
}

/// A small deterministic pseudo-random generator (SplitMix64).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 16 bytes of a version-4 UUID whose last bytes hold `row`, so that keys never collide.
    mutating func uuidBytes(row: Int) -> uuid_t {
        let a = next()
        let b = UInt64(row)
        func byte(_ value: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
        return (
            byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5), (byte(a, 6) & 0x0F) | 0x40, byte(a, 7),
            (byte(b, 7) & 0x3F) | 0x80, byte(b, 6), byte(b, 5), byte(b, 4), byte(b, 3), byte(b, 2), byte(b, 1), byte(b, 0)
        )
    }
}
