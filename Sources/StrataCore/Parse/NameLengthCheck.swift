import Yams

/// Finds names longer than ``SchemaLimits/maximumNameLength`` in a composed document, before the
/// parser looks any name up (and could compute a suggestion for it).
enum NameLengthCheck {
    /// Keys whose values are free text (documentation, defaults, SQL) rather than names.
    static let freeTextKeys: Set<String> = ["doc", "default", "transform", "before", "after", "sql", "sqlite", "postgres"]

    /// One error per over-long name, located at the name.
    static func errors(in root: Node, file: String) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var stack: [(node: Node, isName: Bool)] = [(root, true)]
        while let (node, isName) = stack.popLast() {
            switch node {
            case .scalar(let scalar):
                if isName { check(scalar.string, node, file, &found) }
            case .alias: break
            case .sequence(let sequence):
                stack.append(contentsOf: sequence.map { ($0, isName) })
            case .mapping(let mapping):
                for (key, value) in mapping {
                    let keyText = key.scalar?.string ?? ""
                    check(keyText, key, file, &found)
                    if freeTextKeys.contains(keyText) { continue }
                    // `cases: { a: "raw value" }`: the values are raw values, not names.
                    if keyText == "cases", case .mapping(let cases) = value {
                        for (caseKey, _) in cases { check(caseKey.scalar?.string ?? "", caseKey, file, &found) }
                        continue
                    }
                    stack.append((value, isName))
                }
            }
        }
        return found
    }

    private static func check(_ text: String, _ node: Node, _ file: String, _ found: inout [Diagnostic]) {
        guard text.unicodeScalars.count > SchemaLimits.maximumNameLength else { return }
        let location = node.mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) } ?? .file(file)
        found.append(
            Diagnostic(
                .error,
                "name \(SchemaLimits.abbreviated(text)) is longer than the limit of \(SchemaLimits.maximumNameLength) characters",
                at: location))
    }
}
