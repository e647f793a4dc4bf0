/// How table and column names are derived from entity and field names.
public enum Naming: String, CaseIterable, Sendable, Hashable {
    /// `TODOItem` -> `todo_item`, `isDone` -> `is_done` (the default).
    case snakeCase = "snake_case"
    /// Names are used as written.
    case verbatim

    /// The SQL name for a schema name.
    public func apply(_ name: String) -> String {
        switch self {
        case .verbatim: return name
        case .snakeCase: return Naming.snakeCased(name)
        }
    }

    /// Splits camel case into lower-case words joined by underscores, keeping acronyms together:
    /// `TODOItem` -> `todo_item`, `URLValue2` -> `url_value2`, `isDone` -> `is_done`.
    public static func snakeCased(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            let isUpper = scalar.properties.isUppercase
            if isUpper, index > 0 {
                let previous = scalars[index - 1]
                let nextIsLower = index + 1 < scalars.count && scalars[index + 1].properties.isLowercase
                let previousIsWordy = previous.properties.isLowercase || ("0"..."9").contains(previous)
                if previous != "_" && (previousIsWordy || (previous.properties.isUppercase && nextIsLower)) {
                    result.append("_")
                }
            }
            if isUpper {
                result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
