import Foundation
import StrataCore

/// What `--base <ref>` compares a branch with: the ref's files under the schemas folder, and the
/// versions at the commit where the branch forked from it.
struct BaseRef {
    /// The ref as given (`origin/main`).
    let ref: String
    /// The schemas folder.
    let schemas: String
    /// The ref's files under the schemas folder, by path relative to it.
    let files: [String: Data]
    /// The paths under the schemas folder at the merge base of `HEAD` and the ref; nil when
    /// there is none.
    let mergeBasePaths: [String]?

    /// Reads the ref (only the paths `including` accepts) and the merge base's listing.
    init(ref: String, schemas: String, including: (String) -> Bool = { _ in true }) throws {
        self.ref = ref
        self.schemas = schemas
        files = try GitSnapshot.files(at: ref, under: schemas, including: including)
        mergeBasePaths = GitSnapshot.mergeBase(of: ref, in: schemas).flatMap {
            try? GitSnapshot.paths(at: $0, under: schemas)
        }
    }

    /// The latest version of `model` on the ref (0 when the ref has no such model).
    func latestVersion(of model: String) -> Int {
        BaseVersionCheck.latestVersion(of: model, in: files.keys)
    }

    /// The latest version of `model` where the branch forked; without a merge base, the one
    /// before the ref's latest (the ref's latest version is then all that is compared).
    func mergeBaseVersion(of model: String) -> Int {
        guard let mergeBasePaths else { return max(0, latestVersion(of: model) - 1) }
        return BaseVersionCheck.latestVersion(of: model, in: mergeBasePaths)
    }

    /// The frozen-version errors of the working tree's schemas against the ref, and the warnings
    /// about versions renumbered by hand (``RenumberedVersionCheck``) for `histories`, whose
    /// migration plans are `plans` (in the same order).
    func diagnostics(histories: [SchemaHistory], plans: [[MigrationPlan]]) -> [Diagnostic] {
        var diagnostics = BaseVersionCheck.diagnostics(schemas: schemas, base: files, ref: ref)
        for (history, plans) in zip(histories, plans) {
            let latest = latestVersion(of: history.model)
            guard latest > 0 else { continue }
            diagnostics += RenumberedVersionCheck.warnings(
                plans: plans, baseVersion: latest,
                mergeBaseVersion: min(mergeBaseVersion(of: history.model), latest - 1),
                ref: ref)
        }
        return diagnostics
    }
}
