import StrataStorage

/// What a store at one version of a mapping holds: the entity tables and their `Z<PROPERTY>`
/// columns; and which version a store is at.
enum CoreDataStoreLayout {
    /// The columns a store at `version` has in each entity table (upper-cased), by table.
    static func expectedColumns(_ version: CoreDataMapping.Version) -> [String: Set<String>] {
        var tables: [String: Set<String>] = [:]
        for entity in version.entities {
            guard let root = entity.coreDataRoot else { continue }
            let table = CoreDataStore.zName(root)
            var columns: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
            for field in entity.fields {
                guard let property = field.property else { continue }
                switch field.source {
                case .attribute, .toOne: columns.insert(CoreDataStore.zName(property))
                case .order: columns.insert("Z_FOK_" + property.uppercased())
                case .primaryKey, .joinSource, .joinDestination: break
                }
            }
            tables[table, default: []].formUnion(columns)
        }
        return tables
    }

    /// The newest version of `mapping` whose entity tables the store has with exactly their
    /// properties' columns (Core Data's own columns, `Z_*` and entity-number columns, aside).
    static func version(of store: CoreDataStore, mapping: CoreDataMapping, path: String) throws
        -> CoreDataMapping.Version
    {
        var reasons: [String] = []
        for version in mapping.versions.reversed() {
            let entities = version.entities.compactMap(\.coreDataEntity)
            if let missing = entities.first(where: { store.entityNumbers[$0] == nil }) {
                reasons.append("v\(version.version): no entity '\(missing)' in Z_PRIMARYKEY")
                continue
            }
            var problem: String?
            for (table, expected) in expectedColumns(version).sorted(by: { $0.key < $1.key }) {
                guard let actual = store.columns[table] else {
                    problem = "no table \(table)"
                    break
                }
                let properties = actual.filter {
                    $0.hasPrefix("Z") && !$0.hasPrefix("Z_") && !($0.dropFirst().first?.isNumber ?? false)
                }
                let missing = expected.subtracting(actual)
                let extra = properties.subtracting(expected)
                if !missing.isEmpty || !extra.isEmpty {
                    problem =
                        "table \(table)"
                        + (missing.isEmpty ? "" : " lacks \(missing.sorted().joined(separator: ", "))")
                        + (extra.isEmpty
                            ? "" : "\(missing.isEmpty ? "" : " and") has \(extra.sorted().joined(separator: ", "))")
                    break
                }
            }
            if let problem {
                reasons.append("v\(version.version): \(problem)")
            } else {
                return version
            }
        }
        throw CoreDataStoreImportError.unknownLayout(
            path: path, model: mapping.model, reason: reasons.joined(separator: "; "))
    }
}
