/// A schema file parsed into YAML nodes, each keeping its line and column.
struct YAMLDocument {
    /// The root node, or nil for an empty file.
    var root: YAMLNode?
    /// The file path, as given.
    var file: String

    /// How many nodes a file may expand to through aliases: generous for hand-written files,
    /// small enough that a kilobyte of nested aliases cannot expand into millions of nodes.
    static func nodeBudget(forByteCount count: Int) -> Int { 10_000 + 8 * count }

    /// Composes `text` (``YAMLComposer``), converting YAML errors into diagnostics and refusing
    /// documents whose aliases expand past the node budget.
    static func parse(_ text: String, file: String, diagnostics: inout DiagnosticBag) -> YAMLDocument? {
        let budget = nodeBudget(forByteCount: text.utf8.count)
        do throws(YAMLProblem) {
            return YAMLDocument(root: try YAMLComposer.compose(text, budget: budget), file: file)
        } catch {
            diagnostics.error(message(of: error, byteCount: text.utf8.count), at: location(of: error, file: file))
            return nil
        }
    }

    private static func message(of problem: YAMLProblem, byteCount: Int) -> String {
        switch problem {
        case .syntax(let context, let problem, _, _):
            if problem.contains("Maximum nesting level") {
                // libyaml's own words name its C API; say what it means for a schema.
                return
                    "malformed YAML: collections are nested too deeply (libyaml stops at 1,000 levels; a schema needs a few)"
            }
            let prefix = context.map { "\($0) " } ?? ""
            return "malformed YAML: \(prefix)\(problem)"
        case .reader(let problem):
            return "malformed YAML: \(problem)"
        case .duplicateKeys(let names, _, _):
            let names = names.map { "'\($0)'" }.joined(separator: ", ")
            return "duplicate key \(names): each entity, field, enum, case and option may appear once in a mapping"
        case .overBudget(let budget):
            return
                "YAML aliases expand to more than \(budget) nodes; a schema of \(byteCount) bytes cannot need that many (nested aliases?)"
        case .memory:
            return "malformed YAML: out of memory"
        }
    }

    private static func location(of problem: YAMLProblem, file: String) -> SourceLocation {
        switch problem {
        case .syntax(_, _, let line, let column), .duplicateKeys(_, let line, let column):
            return SourceLocation(file: file, line: line, column: column)
        case .reader, .overBudget, .memory:
            return .file(file)
        }
    }
}

extension SchemaLoader {
    /// Composes `text` into YAML nodes as reading a version file does, and nothing more (the
    /// benchmarks' baseline). False for an empty document or malformed YAML.
    public static func composeYAML(_ text: String) -> Bool {
        let budget = YAMLDocument.nodeBudget(forByteCount: text.utf8.count)
        return ((try? YAMLComposer.compose(text, budget: budget)) ?? nil) != nil
    }
}
