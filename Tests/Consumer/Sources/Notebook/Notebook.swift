// The notebook's data model: `Note` and `Color` are generated at build time by StrataPlugin from
// Schemas/Notebook (see strata.yaml). This file is the target's own code.

import Foundation

extension Note {
    /// The notes in display order: pinned first, then the newest first.
    public static func displayOrder(_ notes: [Note]) -> [Note] {
        notes.sorted { ($0.pinned ? 0 : 1, $1.createdAt) < ($1.pinned ? 0 : 1, $0.createdAt) }
    }
}
