import StrataCore

/// The schema names an imported database gets: entities in UpperCamelCase from table names,
/// fields in lowerCamelCase from column names, each unique, valid and unreserved; `table` and
/// `column` keep the SQL names wherever `naming: snake_case` would not derive them.
enum ImportedNames {
    /// `order_line` -> `OrderLine`, `TODOItem` -> `TODOItem`, `2fa codes` -> `_2faCodes`.
    static func entity(_ table: String) -> String {
        let name = words(table).map(capitalized).joined()
        return usable(name, fallback: "Table", isUsable: SchemaNames.isUsableTypeName)
    }

    /// `is_done` -> `isDone`, `ID` -> `id`, `URLValue` -> `urlValue`.
    static func field(_ column: String) -> String {
        let parts = words(column)
        guard let first = parts.first else {
            return usable("", fallback: "field", isUsable: SchemaNames.isUsableMemberName)
        }
        let head = first.allSatisfy { !$0.isLetter || $0.isUppercase } ? first.lowercased() : lowercasedFirst(first)
        let name = head + parts.dropFirst().map(capitalized).joined()
        return usable(name, fallback: "field", isUsable: SchemaNames.isUsableMemberName)
    }

    /// The column of a reference without its key suffix, for the field's name: `customer_id` ->
    /// `customer`, `ownerID` -> `owner` (the column keeps its name).
    static func referenceColumn(_ column: String) -> String {
        for suffix in ["_id", "Id", "ID"] where column.hasSuffix(suffix) && column.count > suffix.count {
            return String(column.dropLast(suffix.count))
        }
        return column
    }

    /// `name`, or `name` followed by 2, 3, … until `taken` does not hold it (compared case-insensitively).
    static func unique(_ name: String, among taken: Set<String>) -> String {
        guard taken.contains(name.lowercased()) else { return name }
        var number = 2
        while taken.contains("\(name)\(number)".lowercased()) { number += 1 }
        return "\(name)\(number)"
    }

    /// The runs of ASCII letters and digits of a SQL name.
    private static func words(_ name: String) -> [String] {
        name.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
    }

    private static func capitalized(_ word: String) -> String {
        (word.first.map { String($0).uppercased() } ?? "") + word.dropFirst()
    }

    private static func lowercasedFirst(_ word: String) -> String {
        (word.first.map { String($0).lowercased() } ?? "") + word.dropFirst()
    }

    /// `name` made valid: `_` before a leading digit, the fallback for an empty name, and the
    /// fallback's word appended to a reserved one (`Date` -> `DateTable`, `init` -> `initField`).
    private static func usable(_ name: String, fallback: String, isUsable: (String) -> Bool) -> String {
        var result = name.isEmpty ? fallback : name
        if result.first?.isNumber == true { result = "_" + result }
        if !isUsable(result) { result += capitalized(fallback) }
        return result
    }
}
