import Foundation
import Testing

@testable import StrataCore

/// Which versions `strata rebase` plans to write from the three sides, without git.
@Suite struct RebasePlanTests {
    static let v1 = "model: M\nversion: 1\nentities:\n  Item:\n    fields:\n      id: UUID\n"

    static func version(_ number: Int, adding field: String?) -> String {
        v1.replacingOccurrences(of: "version: 1", with: "version: \(number)")
            + (field.map { "      \($0): String?\n" } ?? "")
    }

    func plan(base: [Int: String], target: [Int: String], ours: [Int: String]) -> RebasePlan {
        RebasePlan(
            RebaseSides(
                model: "M", folder: "Schemas/M", base: base, baseRef: "base", target: target, targetRef: "main",
                ours: ours, oursRef: "working tree"))
    }

    @Test func oursAfterTheTargetsIsUpToDate() {
        let target = [1: Self.v1, 2: Self.version(2, adding: "a")]
        let result = plan(
            base: [1: Self.v1], target: target, ours: target.merging([3: Self.version(3, adding: "b")]) { a, _ in a })
        #expect(result.isUpToDate && !result.hasErrors)
    }

    @Test func anEditOfTheLatestIsUpToDateOnlyWhenTheTargetAddedNothing() {
        let edited = Self.v1 + "      note: String?\n"
        #expect(plan(base: [1: Self.v1], target: [1: Self.v1], ours: [1: edited]).isUpToDate)
        let moved = plan(base: [1: Self.v1], target: [1: Self.v1, 2: Self.version(2, adding: "a")], ours: [1: edited])
        #expect(!moved.isUpToDate)
        #expect(moved.versions[1] == Self.v1)
        #expect(moved.replayed.map(\.rebased) == [3])
        #expect(
            moved.versions[3]?.contains("note: String?") == true && moved.versions[3]?.contains("a: String?") == true)
    }

    @Test func aModelAddedOnBothSidesIsAnError() {
        let result = plan(base: [:], target: [1: Self.v1], ours: [1: Self.version(1, adding: "other")])
        #expect(result.hasErrors)
        #expect(
            result.diagnostics.map(\.description) == [
                "Schemas/M/v1.yaml:1:1: error: model 'M' is added both here and by main, with other versions; there is no common version to rebase from: keep one of them"
            ])
        #expect(result.versions.isEmpty)
    }

    @Test func aFrozenVersionThatDiffersFromTheBaseIsAnError() {
        let base = [1: Self.v1, 2: Self.version(2, adding: "a")]
        let result = plan(
            base: base, target: base.merging([3: Self.version(3, adding: "b")]) { a, _ in a },
            ours: [1: Self.v1 + "# edited\n", 2: Self.version(2, adding: "a"), 3: Self.version(3, adding: "c")])
        #expect(
            result.diagnostics.map(\.description) == [
                "Schemas/M/v1.yaml:1:1: error: v1.yaml differs from the merge base (base), where it is frozen: restore it before rebasing"
            ])
    }

    @Test("a version the merge leaves as it is keeps our file's text, comments included, with its new number")
    func unchangedVersionKeepsOurText() {
        let target = Self.v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            + "migration:\n  after: \"UPDATE item SET id = id\"\n"
        let ours = "# yaml-language-server: $schema=x.json\n" + Self.version(2, adding: "a")
            + "      # a comment of ours\n"
        let result = plan(base: [1: Self.v1], target: [1: Self.v1, 2: target], ours: [1: Self.v1, 2: ours])
        #expect(!result.hasErrors, "\(result.diagnostics)")
        #expect(result.versions[2] == target)
        #expect(result.versions[3] == ours.replacingOccurrences(of: "version: 2", with: "version: 3"))
    }

    @Test("the same rename on both sides is kept once, without our renamedFrom")
    func sameRenameTwice() {
        let renamed = Self.v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "  Item:\n", with: "  Task:\n    renamedFrom: Item\n")
        let ours = renamed + "      note: String?\n"
        let result = plan(base: [1: Self.v1], target: [1: Self.v1, 2: renamed], ours: [1: Self.v1, 2: ours])
        #expect(!result.hasErrors, "\(result.diagnostics)")
        let v3 = result.versions[3] ?? ""
        #expect(v3.contains("  Task:\n    fields:\n      id: UUID\n      note: String?\n"), "\(v3)")
        #expect(!v3.contains("renamedFrom"), "\(v3)")
    }
}
