import Foundation
import StrataTestSupport
import Testing

@testable import StrataCore

/// The three-way merge of version snapshots behind `strata rebase`, and how a merged version is
/// written as YAML.
@Suite struct SnapshotMergeTests {
    static let base = """
        model: M
        version: 1
        enums:
          Color:
            type: Int16
            cases: [red, green]
        entities:
          Item:
            fields:
              id: UUID
              title: { type: String, default: "" }
              color: { type: Color, default: red }
          Tag:
            fields:
              id: UUID
              name: String

        """

    func node(_ text: String, _ ref: String) throws -> VersionNode {
        let (node, problems) = VersionNode.parse(text, file: "M/\(ref).yaml", ref: ref)
        #expect(problems.isEmpty, "\(problems)")
        return try #require(node)
    }

    /// Merges `ours` (version 2 of the base) into `theirs` (version 2 of the base, made by the
    /// target), as version 3.
    func merge(ours: (String) -> String, theirs: (String) -> String) throws -> SnapshotMerge {
        let version2 = Self.base.replacingOccurrences(of: "version: 1", with: "version: 2")
        let theirsNode = try node(theirs(version2), "main")
        return SnapshotMerge(
            base: try node(Self.base, "base"), ours: try node(ours(version2), "feature"), theirs: theirsNode,
            theirsRenames: SnapshotRenames(hintsOf: theirsNode.normalizedForMerge()), version: 3, inPlace: false)
    }

    func rendered(_ merge: SnapshotMerge) throws -> String {
        VersionNodeRenderer.render(try #require(merge.result)).text
    }

    @Test func disjointChangesCommute() throws {
        let merged = try merge(
            ours: {
                $0.replacingOccurrences(of: "      name: String\n", with: "      name: String\n      rank: Int?\n")
            },
            theirs: {
                $0.replacingOccurrences(
                    of: "title: { type: String, default: \"\" }", with: "title: { type: String, default: untitled }")
            })
        #expect(merged.conflicts.isEmpty)
        let text = try rendered(merged)
        #expect(text.contains("version: 3\n"))
        #expect(text.contains("      title: { type: String, default: untitled }\n"))
        #expect(text.contains("      name: String\n      rank: Int?\n"))
    }

    @Test func theSameChangeTwiceIsKeptOnce() throws {
        let add = { (text: String) in
            text.replacingOccurrences(of: "      name: String\n", with: "      name: String\n      rank: Int?\n")
        }
        let merged = try merge(ours: add, theirs: add)
        #expect(merged.conflicts.isEmpty)
        #expect(try rendered(merged).components(separatedBy: "rank: Int?").count == 2)
    }

    @Test func aPropertyChangedTwoWaysIsAConflictAtBothSides() throws {
        let merged = try merge(
            ours: { $0.replacingOccurrences(of: "default: \"\" }", with: "default: none }") },
            theirs: { $0.replacingOccurrences(of: "default: \"\" }", with: "default: untitled }") })
        #expect(merged.result == nil, "\(merged.result.map { VersionNodeRenderer.render($0).text } ?? "")")
        let conflict = try #require(merged.conflicts.first)
        #expect(merged.conflicts.count == 1)
        let diagnostics = conflict.diagnostics(fallback: .file("M/v2.yaml")).map(\.description)
        #expect(
            diagnostics == [
                "M/feature.yaml:11:39: error: 'default' of field 'Item.title' is changed here and differently by the target (from feature); nothing was written",
                "M/main.yaml:11:39: note: the target sets it to 'untitled' here (from main)",
            ])
    }

    @Test func aRemovalAgainstAnEditIsAConflict() throws {
        let merged = try merge(
            ours: {
                $0.replacingOccurrences(
                    of: "      name: String\n", with: "      name: { type: String, unique: true }\n")
            },
            theirs: {
                $0.replacingOccurrences(of: "  Tag:\n    fields:\n      id: UUID\n      name: String\n", with: "")
            })
        #expect(merged.result == nil)
        #expect(
            merged.conflicts.map(\.message) == ["field 'Tag.name' is changed here, but the target removes it"]
                || merged.conflicts.map(\.message) == ["entity 'Tag' is changed here, but the target removes it"])
    }

    @Test func ourRemovalAgainstTheTargetsEditIsAConflictAtBothSides() throws {
        let merged = try merge(
            ours: { $0.replacingOccurrences(of: "      color: { type: Color, default: red }\n", with: "") },
            theirs: {
                $0.replacingOccurrences(
                    of: "color: { type: Color, default: red }", with: "color: { type: Color, default: green }")
            })
        #expect(merged.result == nil)
        #expect(
            merged.conflicts.flatMap { $0.diagnostics(fallback: .file("M/v2.yaml")) }.map(\.description) == [
                "M/feature.yaml:10:7: error: field 'Item.color' is removed here, but the target changes it (from feature); nothing was written",
                "M/main.yaml:12:7: note: the target changes field 'Item.color' here (from main)",
            ])
    }

    @Test func oneNameAddedTwiceForDifferentThingsIsAConflict() throws {
        let merged = try merge(
            ours: { $0 + "  Note:\n    fields:\n      id: UUID\n" },
            theirs: { $0 + "  Note:\n    fields:\n      id: Int64\n" })
        #expect(merged.conflicts.map(\.message) == ["entity 'Note' is added here and, differently, by the target"])
    }

    @Test func aRenameCarriesTheOtherSidesEditsAndTheTargetsHintIsNotCopied() throws {
        let merged = try merge(
            ours: {
                $0.replacingOccurrences(of: "      name: String\n", with: "      name: String\n      rank: Int?\n")
            },
            theirs: { $0.replacingOccurrences(of: "  Tag:\n", with: "  Label:\n    renamedFrom: Tag\n") })
        #expect(merged.conflicts.isEmpty)
        let text = try rendered(merged)
        #expect(
            text.contains("  Label:\n    fields:\n      id: UUID\n      name: String\n      rank: Int?\n"), "\(text)")
        #expect(!text.contains("renamedFrom") && !text.contains("Tag"))
    }

    @Test func ourHintsStayOnOurElements() throws {
        let merged = try merge(
            ours: {
                $0.replacingOccurrences(
                    of: "      name: String\n", with: "      label: { type: String, renamedFrom: name }\n")
                    + "migration:\n  allowDataLoss: [Item.color]\n"
            },
            theirs: { $0.replacingOccurrences(of: "  Tag:\n", with: "  Label:\n    renamedFrom: Tag\n") })
        #expect(merged.conflicts.isEmpty)
        let text = try rendered(merged)
        #expect(
            text.contains("  Label:\n    fields:\n      id: UUID\n      label: { type: String, renamedFrom: name }\n"),
            "\(text)")
        #expect(text.hasSuffix("migration:\n  allowDataLoss: [Item.color]\n"))
    }

    @Test func ourAllowLocksFollowTheTargetsRenames() throws {
        let merged = try merge(
            ours: { $0 + "migration:\n  allowLocks: [Tag.name, Tag, Color]\n" },
            theirs: {
                $0.replacingOccurrences(of: "  Tag:\n", with: "  Label:\n    renamedFrom: Tag\n")
                    .replacingOccurrences(of: "      name: String\n", with: "      title: { type: String, renamedFrom: name }\n")
            })
        #expect(merged.conflicts.isEmpty)
        let text = try rendered(merged)
        #expect(text.hasSuffix("migration:\n  allowLocks: [Label.title, Label, Color]\n"), "\(text)")
    }

    @Test func enumCasesAppendedOnBothSidesAreAllKeptTheTargetsFirst() throws {
        let merged = try merge(
            ours: { $0.replacingOccurrences(of: "[red, green]", with: "[red, green, blue]") },
            theirs: { $0.replacingOccurrences(of: "[red, green]", with: "[red, green, black]") })
        #expect(try rendered(merged).contains("cases: [red, green, black, blue]"))
    }

    /// Every version file of the repository's models, fixtures and examples.
    static func versionFiles() -> [URL] {
        let roots = [
            TestPaths.models, TestPaths.schemas,
            TestPaths.packageRoot.appendingPathComponent("Tests/GeneratedRepositoryTests/Schemas"),
        ]
        return roots.flatMap { root in
            TestPaths.files(under: root).filter {
                SchemaLoader.versionNumber(ofFileName: SchemaLoader.name(of: $0)) != nil
            }
            .map { root.appendingPathComponent($0) }
        }
    }

    @Test("parse(render(x)) == x for every version file of the fixture models, and the same schema")
    func renderingRoundTrips() throws {
        let files = Self.versionFiles()
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let original = try node(text, "file").normalizedForMerge()
            let rendered = VersionNodeRenderer.render(original).text
            let reread = try node(rendered, "rendered").normalizedForMerge()
            #expect(reread.canonical == original.canonical, "\(file.path)\n\(rendered)")
            #expect(VersionNodeRenderer.render(reread).text == rendered, "deterministic: \(file.path)")
        }
    }

    @Test("a model whose versions are all rewritten by the renderer generates exactly the same files")
    func renderedModelsGenerateTheSameOutput() throws {
        for model in ["Showcase", "Evolution", "Adopted"] {
            let folder = try TestPaths.copy(TestPaths.models.appendingPathComponent(model))
            let schemas = folder.deletingLastPathComponent().path
            let before = Workspace.plan(schemas: schemas, output: "Out")
            #expect(!before.hasErrors, "\(before.diagnostics)")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".yaml") {
                let url = folder.appendingPathComponent(name)
                let original = try node(String(contentsOf: url, encoding: .utf8), "file").normalizedForMerge()
                try VersionNodeRenderer.render(original).text.write(to: url, atomically: true, encoding: .utf8)
            }
            let after = Workspace.plan(schemas: schemas, output: "Out")
            #expect(!after.hasErrors, "\(after.diagnostics)")
            // The same files, but for the line numbers of `allowDataLoss` entries that plans cite
            // (the renderer writes no blank lines).
            let outputs = { (plan: GenerationPlan) in
                plan.files.filter { !$0.path.hasSuffix("strata.lock") }.map {
                    GeneratedFile(
                        path: $0.path,
                        contents: $0.contents.replacingOccurrences(
                            of: #"(in v[0-9]+\.yaml):[0-9]+"#, with: "$1", options: .regularExpression))
                }
            }
            #expect(outputs(after).map(\.path) == outputs(before).map(\.path), "\(model)")
            for (was, now) in zip(outputs(before), outputs(after)) where was != now {
                let wasLines = was.contents.split(separator: "\n", omittingEmptySubsequences: false)
                let nowLines = now.contents.split(separator: "\n", omittingEmptySubsequences: false)
                let first = Array(zip(wasLines, nowLines)).firstIndex { $0.0 != $0.1 } ?? 0
                Issue.record("\(was.path) differs at line \(first + 1): \(wasLines[first]) | \(nowLines[first])")
            }
        }
    }

    @Test("scalars that need quotes or escapes read back as written")
    func hostileScalarsRoundTrip() throws {
        let texts = [
            "", " leading", "trailing ", "a: b", "a #b", "- x", "[x]", "{x}", "x, y", "'q'", "\"dq\"", "back\\slash",
            "line\nbreak", "tab\there", "del\u{7F}", "c1\u{85}", "sep\u{2028}par\u{2029}", "bom\u{FEFF}", "?", "!x",
            "&a",
            "*a", "%x", "@x", "`x", "yes", "null", "~", "5", "0x1F", "1e3", "Ünïcødé", "two  spaces", "$(rm -rf) \\(x)",
        ]
        let pairs = texts.enumerated().map { index, text in
            VersionNode.Pair(
                key: "k\(index)",
                value: .scalar(VersionNode.Scalar(text: text, tag: .quoted, resolved: "str", origin: nil)),
                keyOrigin: nil)
        }
        let plain = ["5", "yes", "null", "~", "1e3", "Ünïcødé"].enumerated().map { index, text in
            let resolved = try? node("x: \(text)\n", "plain").pairs.first.map { pair -> String in
                if case .scalar(let scalar) = pair.value { return scalar.resolved }
                return ""
            }
            return VersionNode.Pair(
                key: "p\(index)",
                value: .scalar(VersionNode.Scalar(text: text, tag: .plain, resolved: resolved ?? "str", origin: nil)),
                keyOrigin: nil)
        }
        let original = VersionNode.mapping(pairs + plain, nil)
        let text = VersionNodeRenderer.render(original).text
        #expect(try node(text, "rendered").canonical == original.canonical, "\(text)")
    }
}
