/// The bounds on input that keep every command's time and memory bounded (see `Docs/Limits.md`).
public enum SchemaLimits {
    /// The largest version file, in bytes, that Strata reads.
    public static let maximumFileSize = 1_000_000

    /// The longest name (of a model, entity, field, enum, case, type, table, column or index)
    /// in characters. Longer names are an error reported before any suggestion is computed.
    public static let maximumNameLength = 255

    /// `"abcdefghijklmnopqrst…" (300000 characters)`: a name too long to print whole.
    static func abbreviated(_ name: String) -> String {
        let count = name.unicodeScalars.count
        guard count > 40 else { return "'\(name)'" }
        return "'\(String(String.UnicodeScalarView(name.unicodeScalars.prefix(20))))…' (\(count) characters)"
    }
}
