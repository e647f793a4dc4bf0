/// Two sides of a rebase that changed one thing in ways that cannot both hold: the same property
/// changed two ways, an element removed on one side and changed or used on the other, or one name
/// given to two different things. Reported at both sides, ours first.
struct MergeConflict: Sendable {
    /// What is in conflict, e.g. `'default' of field 'Item.title' is changed on both sides`.
    var message: String
    /// Where our side has it (or, for a removal, the closest thing that is there).
    var ours: NodeOrigin?
    /// Where the target's side has it.
    var theirs: NodeOrigin?
    /// What the target does, for the note at its side.
    var theirsSays: String

    /// The error at our side and the note at the target's, compiler-style. `fallback` locates a
    /// side read from no file.
    func diagnostics(fallback: SourceLocation) -> [Diagnostic] {
        let oursLocation = ours?.location ?? fallback
        let oursRef = ours.map { " (from \($0.ref))" } ?? ""
        var diagnostics = [
            Diagnostic(.error, "\(message)\(oursRef); nothing was written", at: oursLocation)
        ]
        if let theirs {
            diagnostics.append(Diagnostic(.note, "\(theirsSays) (from \(theirs.ref))", at: theirs.location))
        }
        return diagnostics
    }
}
