import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// The library parts of reviewing schema changes as a team: conflict markers and duplicate
/// lines in strata.lock, versions frozen by a base ref, the PostgreSQL lock of each migration
/// step, GitHub annotations and the pull request report.
@Suite struct TeamReviewTests {
    static let checksumA = String(repeating: "a", count: 64)
    static let checksumB = String(repeating: "b", count: 64)

    // MARK: - strata.lock

    @Test func conflictMarkersFollowGitsRule() {
        let text = "<<<<<<< HEAD\nv1.yaml x\n||||||| base\n=======\n>>>>>>> main\n<<<<<<<<\n======= x\n=======x\n<<<<<<\n"
        #expect(MergeConflictMarkers.lines(in: text) == [1, 3, 4, 5, 7])
        #expect(MergeConflictMarkers.lines(in: "a: 1\r\n=======\r\n") == [2], "CRLF files too")
        #expect(MergeConflictMarkers.lines(in: "model: M\n# ======= not a marker\n").isEmpty)
    }

    @Test func aLockWithConflictMarkersSaysToResolveTheMergeNotToRestoreTheFile() {
        let text = """
            # strata.lock
            v1.yaml sha256:\(Self.checksumA)
            <<<<<<< HEAD
            v2.yaml sha256:\(Self.checksumA)
            =======
            v2.yaml sha256:\(Self.checksumB)
            >>>>>>> main

            """
        #expect(Lockfile.problems(in: text) == [.conflictMarker(line: 3), .conflictMarker(line: 5), .conflictMarker(line: 7)])
        #expect(Lockfile.malformedLines(in: text).isEmpty)
        let diagnostics = Lockfile.diagnostics(for: text, path: "Schemas/M/strata.lock")
        #expect(
            diagnostics.map(\.description) == [
                "Schemas/M/strata.lock:3:1: error: strata.lock has merge conflict markers (lines 3, 5, 7): resolve the merge with `strata rebase`"
            ])
        #expect(!diagnostics.contains { $0.message.contains("restore the file") })
    }

    @Test func duplicateLockLinesAreReportedWhereTheyAre() {
        let text = """
            v1.yaml sha256:\(Self.checksumA)
            v2.yaml sha256:\(Self.checksumA)
            v2.yaml sha256:\(Self.checksumB)
            v1.yaml sha256:\(Self.checksumA)
            not a line

            """
        #expect(
            Lockfile.problems(in: text) == [
                .duplicate(line: 3, version: 2, firstLine: 2, sameChecksum: false),
                .duplicate(line: 4, version: 1, firstLine: 1, sameChecksum: true), .malformed(line: 5),
            ])
        let diagnostics = Lockfile.diagnostics(for: text, path: "M/strata.lock")
        #expect(diagnostics.count == 3)
        #expect(diagnostics[0].severity == .error)
        #expect(
            diagnostics[0].description.hasPrefix(
                "M/strata.lock:3:1: error: v2.yaml is listed twice in strata.lock (first at line 2) with different checksums"))
        #expect(diagnostics[0].message.contains("run `strata rebase`"))
        #expect(diagnostics[1].severity == .warning)
        #expect(diagnostics[1].description.hasPrefix("M/strata.lock:4:1: warning: v1.yaml is listed twice"))
        #expect(diagnostics[2].description.hasPrefix("M/strata.lock:5:1: error: this line of strata.lock is not"))
        // The last line counts, as before.
        #expect(Lockfile(parsing: text).checksums[2] == Self.checksumB)
    }

    /// A model folder in a temporary folder with the given files.
    static func model(_ files: [String: String]) throws -> String {
        let root = try TestPaths.temporaryFolder()
        let folder = root.appendingPathComponent("M")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return root.path
    }

    static let v1 = """
        model: M
        version: 1
        entities:
          Item:
            fields:
              id: UUID
              title: String

        """

    @Test func aVersionFileWithConflictMarkersSaysToResolveTheMerge() throws {
        let v2 = """
            model: M
            version: 2
            entities:
              Item:
                fields:
                  id: UUID
            <<<<<<< HEAD
                  title: String
            =======
                  name: String
            >>>>>>> main

            """
        let schemas = try Self.model(["v1.yaml": Self.v1, "v2.yaml": v2])
        let result = SchemaLoader.loadAll(from: schemas)
        #expect(
            result.diagnostics.map(\.description) == [
                "\(schemas)/M/v2.yaml:7:1: error: v2.yaml has merge conflict markers (lines 7, 9, 11): resolve the merge with `strata rebase`"
            ])
    }

    @Test func aSecondSpellingOfAVersionNumberIsNamedAsSuch() throws {
        let schemas = try Self.model(["v1.yaml": Self.v1, "v1.yml": Self.v1, "v01.yaml": Self.v1])
        let messages = SchemaLoader.loadAll(from: schemas).diagnostics.map(\.message)
        #expect(messages.count == 2, "\(messages)")
        #expect(messages.allSatisfy { $0.contains("is a second file for version 1 of 'M', beside 'v1.yaml'") })
    }

    // MARK: - versions frozen by a base ref

    @Test func everyVersionOnTheBaseIsFrozenTheLatestIncluded() throws {
        let v2 = Self.v1.replacingOccurrences(of: "version: 1", with: "version: 2") + "      # v2\n"
        let schemas = try Self.model(["v1.yaml": Self.v1, "v2.yaml": v2])
        let same = BaseVersionCheck.diagnostics(
            schemas: schemas, base: ["M/v1.yaml": Data(Self.v1.utf8), "M/v2.yaml": Data(v2.utf8), "M/strata.lock": Data()], ref: "main")
        #expect(same.isEmpty)
        let crlf = Data(Self.v1.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        #expect(BaseVersionCheck.diagnostics(schemas: schemas, base: ["M/v1.yaml": crlf], ref: "main").isEmpty, "line endings aside")

        let edited = v2.replacingOccurrences(of: "title: String", with: "title: String?")
        let found = BaseVersionCheck.diagnostics(
            schemas: schemas, base: ["M/v1.yaml": Data(Self.v1.utf8), "M/v2.yaml": Data(edited.utf8)], ref: "origin/main")
        #expect(
            found.map(\.description) == [
                "\(schemas)/M/v2.yaml:7:1: error: v2.yaml differs from origin/main: every version on origin/main is frozen "
                    + "(databases may already be at it); run `strata rebase` to replay your changes as new versions after it"
            ])
        let gone = BaseVersionCheck.diagnostics(
            schemas: schemas, base: ["M/v3.yaml": Data(v2.utf8), "Other/v1.yaml": Data()], ref: "main")
        #expect(gone.count == 1 && gone[0].message.hasPrefix("v3.yaml exists on main but not on this branch"))
        #expect(BaseVersionCheck.latestVersion(of: "M", in: ["M/v1.yaml", "M/v12.yaml", "N/v13.yaml", "M/v14.yml"]) == 12)
        #expect(BaseVersionCheck.latestVersion(of: "X", in: ["M/v1.yaml"]) == 0)
    }

    // MARK: - PostgreSQL locks

    /// The plan from v1 to v2 of a model written from YAML.
    static func plan(_ v1: String, _ v2: String) throws -> MigrationPlan {
        let schemas = try model(["v1.yaml": v1, "v2.yaml": v2])
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: "M", in: schemas)
        #expect(!diagnostics.contains { $0.severity == .error }, "\(diagnostics)")
        let loaded = try #require(history)
        return try #require(Generator.migrationPlans(for: loaded).first)
    }

    static let shop1 = """
        model: M
        version: 1
        enums:
          Status: { type: String, cases: [open, closed] }
        entities:
          Owner:
            fields:
              id: UUID
          Item:
            fields:
              id: UUID
              title: String
              size: Int32
              notes: String?
              status: { type: Status, default: open }

        """

    static let shop2 = """
        model: M
        version: 2
        enums:
          Status: { type: String, cases: [open, closed, archived] }
        entities:
          Owner:
            fields:
              id: UUID
          Item:
            fields:
              id: UUID
              label: { type: String, renamedFrom: title }
              size: Int64
              notes: { type: String, default: "" }
              status: { type: Status, default: open }
              done: { type: Bool, default: false }
              memo: String?
              owner: Owner?
            indexes:
              - [size]
              - { fields: [label], concurrently: true }
          Tag:
            fields:
              id: UUID
              item: Item

        """

    @Test func eachStepIsClassifiedByTheLockItTakesOnPostgreSQL() throws {
        let plan = try Self.plan(Self.shop1, Self.shop2)
        var locks: [String: PostgresLock] = [:]
        for step in plan.steps { locks[step.change.summary] = plan.postgresLock(of: step) }
        func lock(_ prefix: String) throws -> PostgresLock {
            try #require(locks.first { $0.key.hasPrefix(prefix) }?.value, "no step '\(prefix)' in \(locks.keys.sorted())")
        }
        #expect(try lock("rename field Item.title") == PostgresLock(mode: .accessExclusive, work: .catalogOnly))
        // Into a shadow column filled in batches and proved NOT NULL beforehand, swapped in the
        // transaction; the NULLs of notes filled in batches too.
        #expect(
            try lock("change the type of Item.size")
                == PostgresLock(mode: .accessExclusive, work: .catalogOnly, readBeforehand: true, filledInBatches: true))
        #expect(
            try lock("make Item.notes required")
                == PostgresLock(mode: .accessExclusive, work: .catalogOnly, readBeforehand: true, filledInBatches: true))
        #expect(try lock("add field Item.memo") == PostgresLock(mode: .accessExclusive, work: .catalogOnly))
        #expect(
            try lock("add field Item.done") == PostgresLock(mode: .accessExclusive, work: .catalogOnly),
            "NOT NULL DEFAULT in one ADD COLUMN")
        #expect(
            try lock("add field Item.owner")
                == PostgresLock(mode: .accessExclusive, work: .scan, referenced: ["Owner": .shareRowExclusive]))
        // Over the shadow column of size, built concurrently before the version's transaction.
        #expect(
            try lock("add index item_size_idx") == PostgresLock(mode: .shareUpdateExclusive, work: .scan, outsideTransaction: true))
        #expect(
            try lock("add index item_label_idx")
                == PostgresLock(mode: .shareUpdateExclusive, work: .scan, outsideTransaction: true))
        #expect(
            try lock("add entity Tag")
                == PostgresLock(mode: .accessExclusive, work: .catalogOnly, referenced: ["Item": .shareRowExclusive]))
        // The check replaced NOT VALID before the version's transaction, then validated.
        #expect(
            try lock("add case archived")
                == PostgresLock(mode: .accessExclusive, work: .catalogOnly, outsideTransaction: true, readBeforehand: true))
        #expect(
            try lock("add index item_label_idx").summary
                == "SHARE UPDATE EXCLUSIVE, scans every row, outside the transaction")
        #expect(try lock("add field Item.owner").summary == "ACCESS EXCLUSIVE, scans every row; SHARE ROW EXCLUSIVE on Owner")
    }

    @Test func lockModesAreOrderedAndNamedAsPostgreSQLNamesThem() {
        #expect(PostgresLock.Mode.allCases.sorted() == PostgresLock.Mode.allCases)
        #expect(PostgresLock.Mode.accessExclusive.name == "ACCESS EXCLUSIVE")
        #expect(PostgresLock.Mode.accessExclusive.pgLocksMode == "AccessExclusiveLock")
        #expect(PostgresLock.Mode.shareUpdateExclusive.pgLocksMode == "ShareUpdateExclusiveLock")
        #expect(PostgresLock.Mode.accessExclusive.blocksReads && !PostgresLock.Mode.shareRowExclusive.blocksReads)
        #expect(PostgresLock.Work.catalogOnly < .scan && PostgresLock.Work.updatesRows < .rewrite)
        let removed = SchemaChange.enumCasesRemoved(enum: "Status", [])
        #expect(PostgresLock.of(removed) == PostgresLock(mode: .accessExclusive, work: .updatesRows))
    }

    // MARK: - versions renumbered by hand

    @Test func aVersionRenumberedByHandIsWarnedAboutEachChangeOfTheTargetItUndoes() throws {
        let v1 = Self.v1.replacingOccurrences(of: "      title: String\n", with: "      title: { type: String, default: a }\n")
        // The target's v2: an index, another default.
        let theirs = v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "default: a", with: "default: b") + "    indexes:\n      - [title]\n"
        // The branch's version, written on v1 and renamed v3 after the merge: a new field only.
        let ours = v1.replacingOccurrences(of: "version: 1", with: "version: 3") + "      note: String?\n"
        let schemas = try Self.model(["v1.yaml": v1, "v2.yaml": theirs, "v3.yaml": ours])
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: "M", in: schemas)
        #expect(!diagnostics.contains { $0.severity == .error }, "\(diagnostics)")
        let plans = Generator.migrationPlans(for: try #require(history))
        let warnings = RenumberedVersionCheck.warnings(plans: plans, baseVersion: 2, mergeBaseVersion: 1, ref: "main")
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.allSatisfy { $0.severity == .warning && $0.location.file.hasSuffix("M/v3.yaml") })
        #expect(
            warnings.map(\.message).sorted() == [
                "v3.yaml undoes 'add index item_title_idx on Item(title)' of v2.yaml on main: if v3 was written before "
                    + "main's v2 and renumbered by hand, run `strata rebase` to replay it on top; if the undo is meant, "
                    + "ignore this warning",
                "v3.yaml undoes 'change the default of Item.title from \"a\" to \"b\"' of v2.yaml on main: if v3 was "
                    + "written before main's v2 and renumbered by hand, run `strata rebase` to replay it on top; if the "
                    + "undo is meant, ignore this warning",
            ])
        // Written after the target's v2 (it keeps the index and the default): nothing to say.
        let rebased = theirs.replacingOccurrences(of: "version: 2", with: "version: 3")
            .replacingOccurrences(of: "    indexes:", with: "      note: String?\n    indexes:")
        let clean = try Self.model(["v1.yaml": v1, "v2.yaml": theirs, "v3.yaml": rebased])
        let cleanPlans = Generator.migrationPlans(for: try #require(SchemaLoader.loadModel(named: "M", in: clean).0))
        #expect(cleanPlans.count == 2)
        #expect(RenumberedVersionCheck.warnings(plans: cleanPlans, baseVersion: 2, mergeBaseVersion: 1, ref: "main").isEmpty)
        #expect(RenumberedVersionCheck.warnings(plans: plans, baseVersion: 3, mergeBaseVersion: 1, ref: "main").isEmpty)
    }

    // MARK: - GitHub annotations

    @Test func diagnosticsBecomeGitHubWorkflowCommands() {
        let diagnostics = [
            Diagnostic(.error, "unknown type 'Colour'; did you mean 'Color'?", at: SourceLocation(file: "./Schemas/M/v1.yaml", line: 12, column: 14)),
            Diagnostic(.warning, "100% sure:\nsecond line\r", at: SourceLocation(file: "Schemas/a,b:c/v2.yaml", line: 3, column: 1)),
            Diagnostic(.note, "a note", at: .file("M/strata.lock")),
        ]
        #expect(
            DiagnosticAnnotations.render(diagnostics) == """
                ::error file=Schemas/M/v1.yaml,line=12,col=14::unknown type 'Colour'; did you mean 'Color'?
                ::warning file=Schemas/a%2Cb%3Ac/v2.yaml,line=3,col=1::100%25 sure:%0Asecond line%0D
                ::notice file=M/strata.lock,line=1,col=1::a note

                """)
        #expect(DiagnosticAnnotations.render([]).isEmpty)
    }

    // MARK: - the pull request report

    @Test func theReportShowsStepsLocksRebuildsAndDataLoss() throws {
        let v2 = """
            model: M
            version: 2
            entities:
              Item:
                fields:
                  id: UUID
                  title: String?
                  added: String?
                indexes:
                  - [added]
            migration:
              allowDataLoss: [Item.size]

            """
        let v1 = Self.v1.replacingOccurrences(of: "      title: String\n", with: "      title: String\n      size: Int32\n")
        let plan = try Self.plan(v1, v2)
        let report = PullRequestReport(
            ref: "origin/main", models: [PullRequestReport.ModelChanges(model: "M", baseVersion: 1, plans: [plan])],
            generatedFiles: PullRequestReport.fileChanges(
                base: [GeneratedFile(path: "M/a.swift", contents: "1"), GeneratedFile(path: "M/gone.sql", contents: "")],
                head: [GeneratedFile(path: "M/a.swift", contents: "2"), GeneratedFile(path: "M/new.sql", contents: "")]))
        let markdown = report.markdown
        #expect(markdown.hasPrefix("## Strata: schema changes against `origin/main`\n"))
        #expect(markdown.contains("### M: v1 → v2 (1 new version)"))
        #expect(markdown.contains("> **1 destructive step**, each allowed by `allowDataLoss`"))
        #expect(markdown.contains("| Step | Data loss | PostgreSQL lock | SQLite |"))
        #expect(
            markdown.contains(
                "| remove field Item.size (column size and its values) | yes, allowed by `allowDataLoss: Item.size` (v2.yaml:12) "
                    + "| ACCESS EXCLUSIVE, catalog only | rebuilds item |"), "\(markdown)")
        #expect(markdown.contains("| make Item.title optional |  | ACCESS EXCLUSIVE, catalog only | rebuilds item |"), "\(markdown)")
        #expect(markdown.contains("| add index item_added_idx on Item(added) |  | SHARE, scans every row | rebuilds item |"), "\(markdown)")
        #expect(markdown.contains("Entities changed: `Item` (fields: title, added, size)."), "\(markdown)")
        #expect(markdown.contains("- changed: `M/a.swift`\n- removed: `M/gone.sql`\n- added: `M/new.sql`"), "\(markdown)")
        #expect(!markdown.contains("error"))

        let unallowed = PullRequestReport(
            ref: "main", models: [PullRequestReport.ModelChanges(model: "M", baseVersion: 2, plans: [])],
            diagnostics: [Diagnostic(.error, "boom | here", at: .file("M/v3.yaml"))])
        #expect(unallowed.markdown.contains("**1 error, 0 warnings**\n\n```\nM/v3.yaml:1:1: error: boom | here\n```"))
        #expect(unallowed.markdown.contains("No new versions: this branch does not change any database."))
    }
}
