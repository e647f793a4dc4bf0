/// The bounds the generator holds any input to, so that every schema answers in bounded time and
/// memory (documented in `Docs/SchemaReference.md`, "Limits").
public enum Limits {
    /// The largest version file, in bytes (1 MB): the largest size at which `lint` answers in
    /// under 2 s and `generate` in under 5 s on a 2-core machine with room for load, and that
    /// still admits the benchmark's 1,000-entity model (`Docs/Benchmarks.md`, "The largest
    /// allowed input").
    public static let versionFileBytes = 1024 * 1024
    /// The largest query file (`queries/*.sql`), in bytes: the same bound as a version file.
    public static let queryFileBytes = versionFileBytes
    /// The largest Core Data model file (`contents` of a `.xcdatamodel`) `strata import coredata`
    /// reads, in bytes (4 MB), checked before it is parsed, so that a huge file is refused at
    /// once (the YAML each version becomes must still fit ``versionFileBytes``).
    public static let coreDataContentsBytes = 4 * versionFileBytes
    /// The longest name (entity, field, enum, case, key, type), in characters.
    public static let nameLength = 128
    /// Names this many characters longer or shorter than a candidate are never suggested for it
    /// (a suggestion is at most 3 edits away).
    static let suggestionLengthDifference = 3

    /// `name` shortened for a message: the first 40 characters and the length.
    static func shown(_ name: String) -> String {
        name.count <= nameLength ? name : "\(name.prefix(40))… (\(name.count) characters)"
    }
}
