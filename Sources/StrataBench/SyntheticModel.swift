import Foundation

/// A deterministic synthetic model for the generator benchmark: `entities` entities of 20 fields
/// (at the last version) over up to five versions that change every entity the way real models
/// change:
///
/// | version | change, in every entity |
/// |---|---|
/// | v1 | 18 fields of every scalar type, an enum of each raw kind, a reference to the previous entity (optional, `setNull`), an index |
/// | v2 | a field added (with a default: `ADD COLUMN`) |
/// | v3 | a field renamed with `renamedFrom` (`RENAME COLUMN`) |
/// | v4 | a type widening, `Int32` to `Int64` (SQLite rebuilds the table, PostgreSQL alters the type) |
/// | v5 | a field added and a second index |
///
/// The same arguments always give the same bytes.
public struct SyntheticModel: Sendable {
    /// The model's name (its folder under the schemas folder).
    public static let name = "Synthetic"
    /// The most versions a synthetic model has.
    public static let maximumVersions = 5
    /// Fields per entity at the last of the five versions.
    public static let fieldsPerEntity = 20

    /// How many entities.
    public let entities: Int
    /// How many versions (1 to 5).
    public let versions: Int

    /// A model of `entities` entities (at least 1) and `versions` versions (clamped to 1…5).
    public init(entities: Int, versions: Int = SyntheticModel.maximumVersions) {
        self.entities = max(1, entities)
        self.versions = min(max(1, versions), Self.maximumVersions)
    }

    /// The version files, oldest first: (`v1.yaml`, its text), …
    public func files() -> [(name: String, text: String)] {
        (1...versions).map { version in ("v\(version).yaml", text(ofVersion: version)) }
    }

    /// Writes the model folder `<directory>/Synthetic/` (replacing it) and returns its path.
    @discardableResult
    public func write(into directory: String) throws -> String {
        let folder = (directory as NSString).appendingPathComponent(Self.name)
        let manager = FileManager.default
        if manager.fileExists(atPath: folder) { try manager.removeItem(atPath: folder) }
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in files() {
            try Data(file.text.utf8).write(
                to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(file.name)))
        }
        return folder
    }

    /// The text of one version file.
    public func text(ofVersion version: Int) -> String {
        var out = """
            model: \(Self.name)
            version: \(version)

            enums:
              Status:
                type: String
                cases: [open, closed, archived]
              Level:
                type: Int16
                cases: [low, middle, high]
                unknown: low

            entities:

            """
        for index in 1...entities {
            out += entity(index, version: version)
        }
        // v4 widens every `count` from Int32 to Int64: through a shadow column on PostgreSQL, which
        // takes no lock to acknowledge.
        return out
    }

    /// The single-version model (`v1.yaml` alone) with the most entities whose file is at most
    /// `bytes` long: the largest model-shaped input a version-file size limit of `bytes` allows.
    public static func largest(fittingIn bytes: Int) -> SyntheticModel {
        func size(_ entities: Int) -> Int {
            SyntheticModel(entities: entities, versions: 1).text(ofVersion: 1).utf8.count
        }
        let perEntity = max(1, (size(101) - size(1)) / 100)
        var entities = max(1, (bytes - size(1)) / perEntity + 1)
        // Entity names and their doc lines grow with the count: step down on the exact size.
        while entities > 1 {
            let excess = size(entities) - bytes
            if excess <= 0 { break }
            entities -= max(1, excess / perEntity)
        }
        while size(entities + 1) <= bytes { entities += 1 }
        return SyntheticModel(entities: entities, versions: 1)
    }

    /// `Entity0001` for 1.
    static func entityName(_ index: Int) -> String {
        let digits = String(index)
        return "Entity" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private func entity(_ index: Int, version: Int) -> String {
        let name = Self.entityName(index)
        var lines = [
            "  \(name):",
            "    doc: Synthetic entity \(index) of \(entities).",
            "    fields:",
            "      id: UUID",
            "      name: String",
            version >= 3
                ? "      heading: { type: String, default: \"\", renamedFrom: title }"
                : "      title: { type: String, default: \"\" }",
            "      note: String?",
            version >= 4 ? "      count: Int64" : "      count: Int32",
            "      quantity: { type: Int, default: 0 }",
            "      total: Int64",
            "      small: Int16",
            "      price: { type: Decimal, default: \"0\" }",
            "      ratio: Double",
            "      weight: Float?",
            "      isActive: { type: Bool, default: true }",
            "      status: { type: Status, default: open }",
            "      level: { type: Level, default: low }",
            "      createdAt: Date",
            "      updatedAt: Date?",
            "      payload: Data?",
            index > 1
                ? "      owner: { type: \(Self.entityName(index - 1))?, onDelete: setNull }"
                : "      token: UUID?",
        ]
        // Only the v3 file says `renamedFrom`: later versions continue `heading` by its own name.
        if version > 3 {
            lines[5] = "      heading: { type: String, default: \"\" }"
        }
        if version >= 2 { lines.append("      summary: { type: String, default: \"\" }") }
        if version >= 5 { lines.append("      score: { type: Double, default: 0 }") }
        lines.append("    indexes:")
        lines.append("      - [name]")
        if version >= 5 { lines.append("      - [status, createdAt]") }
        if index < entities {
            lines.append("    hasMany:")
            lines.append("      children: { entity: \(Self.entityName(index + 1)), via: owner }")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
