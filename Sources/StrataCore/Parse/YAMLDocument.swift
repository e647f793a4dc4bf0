import Yams

/// A schema file parsed into YAML nodes, each keeping its line and column.
struct YAMLDocument {
    /// The root node, or nil for an empty file.
    var root: Node?
    /// The file path, as given.
    var file: String

    /// How many nodes a file may expand to through aliases: generous for hand-written files,
    /// small enough that a kilobyte of nested aliases cannot expand into millions of nodes.
    static func nodeBudget(forByteCount count: Int) -> Int { 10_000 + 8 * count }

    /// Composes `text` with Yams, converting YAML errors into diagnostics and refusing documents
    /// whose aliases expand past the node budget.
    static func parse(_ text: String, file: String, diagnostics: inout DiagnosticBag) -> YAMLDocument? {
        let root: Node?
        do {
            root = try compose(text)
        } catch let error as YamlError {
            diagnostics.error(message(of: error), at: location(of: error, file: file, text: text))
            return nil
        } catch {
            diagnostics.error("cannot read YAML: \(error)", at: .file(file))
            return nil
        }
        let budget = nodeBudget(forByteCount: text.utf8.count)
        // Only aliases (`*name`) can expand a document past its size; without a `*` there is none.
        if let root, text.utf8.contains(UInt8(ascii: "*")), !withinBudget(root, budget: budget) {
            diagnostics.error(
                "YAML aliases expand to more than \(budget) nodes; a schema of \(text.utf8.count) bytes cannot need that many (nested aliases?)",
                at: .file(file))
            return nil
        }
        return YAMLDocument(root: root, file: file)
    }

    /// The YAML nodes of `text`, composed with Yams' basic resolver: mapping keys are read as names
    /// whatever they look like, and value scalars are resolved only when read (`Node.tagName`).
    /// Yams' default resolver would run its regular expressions over every key while checking for
    /// duplicates, which costs more than the rest of composing.
    static func compose(_ text: String) throws -> Node? {
        try Yams.compose(yaml: text, .basic)
    }

    /// Counts nodes depth-first, stopping as soon as the budget is spent.
    private static func withinBudget(_ root: Node, budget: Int) -> Bool {
        var remaining = budget
        var stack = [root]
        while let node = stack.popLast() {
            remaining -= 1
            if remaining < 0 { return false }
            switch node {
            case .scalar, .alias: break
            case .sequence(let sequence): stack.append(contentsOf: sequence)
            case .mapping(let mapping):
                for (key, value) in mapping {
                    stack.append(key)
                    stack.append(value)
                }
            }
        }
        return true
    }

    /// Yams reports a duplicate key at its first occurrence; the mistake is the later one. In block style
    /// the repeat is a later line with the key at the same column, before the mapping's indentation ends.
    private static func secondOccurrence(of key: String, after first: SourceLocation, in text: String) -> SourceLocation? {
        // "\r\n" is one Character, so splitting at the Character "\n" would leave a CRLF file one line long.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let indent = first.column - 1
        guard first.line >= 1, first.line <= lines.count else { return nil }
        for index in first.line..<lines.count {
            let line = Array(lines[index].unicodeScalars)
            let leading = line.prefix { $0 == " " }.count
            if line.isEmpty || line.allSatisfy({ $0 == " " }) || line[leading] == "#" { continue }
            if leading < indent { return nil }
            guard leading == indent else { continue }
            let rest = String(String.UnicodeScalarView(line[leading...]))
            for spelled in [key, "\"\(key)\"", "'\(key)'"] where rest.hasPrefix(spelled) {
                if rest.dropFirst(spelled.count).drop(while: { $0 == " " }).hasPrefix(":") {
                    return SourceLocation(file: first.file, line: index + 1, column: first.column)
                }
            }
        }
        return nil
    }

    private static func message(of error: YamlError) -> String {
        switch error {
        case .scanner(let context, let problem, _, _),
            .parser(let context, let problem, _, _),
            .composer(let context, let problem, _, _):
            if problem.contains("Maximum nesting level") {
                // libyaml's own words name its C API; say what it means for a schema.
                return "malformed YAML: collections are nested too deeply (libyaml stops at 1,000 levels; a schema needs a few)"
            }
            let prefix = context.map { "\($0.text) " } ?? ""
            return "malformed YAML: \(prefix)\(problem)"
        case .reader(let problem, _, _, _):
            return "malformed YAML: \(problem)"
        case .duplicatedKeysInMapping(let duplicates, _):
            let names = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return "duplicate key \(names): each entity, field, enum, case and option may appear once in a mapping"
        default:
            return "malformed YAML: \(error)"
        }
    }

    private static func location(of error: YamlError, file: String, text: String) -> SourceLocation {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return SourceLocation(file: file, line: mark.line, column: mark.column)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let first = SourceLocation(file: file, line: context.mark.line, column: context.mark.column)
            return secondOccurrence(of: duplicates.first ?? "", after: first, in: text) ?? first
        default:
            return .file(file)
        }
    }
}
