/// SQL identifiers as both databases Strata supports quote them: standard double quotes, in which
/// only `"` needs escaping (by doubling). Quoting every identifier keeps keywords, spaces and case
/// exactly as written. The one quoting function of the generator, the runtimes and the tools.
public enum SQLIdentifier {
    /// `name` as a quoted identifier: `order` -> `"order"`, `a"b` -> `"a""b"`.
    public static func quoted(_ name: String) -> String {
        // Most names hold no quote: skip Foundation's search-and-replace (a hot spot on large models).
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
