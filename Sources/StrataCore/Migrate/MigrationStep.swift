/// One derived step of a migration, in words, for `strata plan` and reviews.
public struct MigrationStep: Hashable, Sendable {
    /// The change the step carries out.
    public var change: SchemaChange
    /// True when the step drops data (a removed entity, field or enum case).
    public var isDestructive: Bool
    /// The `allowDataLoss` item that allowed a destructive step.
    public var allowedBy: DataLossAllowance?
    /// How values are produced, where it matters ("filled from default false", "cast from Int16").
    public var detail: String?

    /// The step as one line: `- add field TODOItem.isDone (filled from default false)`, destructive ones marked.
    public var line: String {
        let fileName = { (path: String) in path.split(separator: "/").last.map(String.init) ?? path }
        var text = change.summary
        if let detail { text += " (\(detail))" }
        if isDestructive {
            text = "DESTRUCTIVE: " + text + (allowedBy.map { "; allowed by allowDataLoss '\($0.spelled)' in \(fileName($0.location.file)):\($0.location.line)" } ?? "")
        }
        return text
    }
}
