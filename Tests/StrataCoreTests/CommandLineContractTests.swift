import Foundation
import GRDB
import StrataCore
import StrataRelease
import StrataTestSupport
import Testing

/// The command-line contract of `strata` and `strata-generator`, on the real executables: exit
/// 0 success, 1 problems found, 2 could not run, 64 usage, on every command; `--version`;
/// `--format json`; progress on standard error; the regenerate command each reader has.
@Suite struct CommandLineContractTests {
    typealias Result = CLI.Result

    static func todoCopy() throws -> URL {
        let root = try TestPaths.temporaryFolder()
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Schemas"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestPaths.schemas.appendingPathComponent("MyTODO"), to: root.appendingPathComponent("Schemas/MyTODO"))
        return root
    }

    static func json(_ result: Result) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    }

    @Test(arguments: ["strata", "strata-generator"])
    func versionIsTheOneConstant(_ tool: String) throws {
        let result = try CLI.run(tool, ["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == StrataVersion.current)
    }

    @Test func everyCommandExits64OnUsageErrors() throws {
        let root = try Self.todoCopy()
        for arguments in [
            ["generate", "--no-such-flag"], ["check", "--format", "yaml"], ["lint", "extra"], ["plan"],
            ["plan", "NoSuchModel"], ["plan", "MyTODO", "--to", "9"], ["migrate"],
            ["migrate", "--database", "x.sqlite", "--model", "Nope"],
            ["verify", "--rows", "many"], ["no-such-command"],
        ] {
            let result = try CLI.strata(arguments, in: root)
            #expect(
                result.status == 64, "strata \(arguments.joined(separator: " ")): \(result.status) \(result.stderr)")
        }
        #expect(try CLI.run("strata-generator", ["generate", "--no-such-flag"]).status == 64)
    }

    @Test func problemsExit1OnEveryCommand() throws {
        let bad = try TestPaths.copy(TestPaths.bad.appendingPathComponent("unknown-type"))
        for arguments in [
            ["generate"], ["check"], ["lint"], ["plan", "M"], ["migrate", "--database", "m.sqlite"], ["verify"],
            ["check", "--format", "json"], ["plan", "M", "--format", "json"], ["verify", "--format", "json"],
        ] {
            let result = try CLI.strata(arguments + ["--schemas", "."], in: bad)
            #expect(result.status == 1, "strata \(arguments.joined(separator: " ")): \(result.status) \(result.stderr)")
        }
        #expect(try CLI.run("strata-generator", ["lint", "--schemas", "."], in: bad).status == 1)
    }

    @Test func couldNotRunExits2() throws {
        let root = try Self.todoCopy()
        // The output folder is a file: nothing can be written.
        try "not a folder".write(to: root.appendingPathComponent("Generated"), atomically: true, encoding: .utf8)
        let generate = try CLI.strata(["generate"], in: root)
        #expect(generate.status == 2, "\(generate.stderr)")
        #expect(generate.stderr.contains("error: "))
        // …nor compared with: one line, not every generated file reported missing in full.
        for format in ["text", "json"] {
            let check = try CLI.strata(["check", "--format", format], in: root)
            #expect(check.status == 2, "\(check.stderr)")
            #expect(check.stdout.isEmpty)
            #expect(check.stderr == "error: cannot read Generated: a file is where the output folder should be\n")
        }
        // A file that is not a SQLite database.
        try String(repeating: "not a database ", count: 100).write(
            to: root.appendingPathComponent("notes.sqlite"), atomically: true, encoding: .utf8)
        for format in ["text", "json"] {
            let migrate = try CLI.strata(["migrate", "--database", "notes.sqlite", "--format", format], in: root)
            #expect(migrate.status == 2, "\(migrate.stdout)\(migrate.stderr)")
        }
        // A PostgreSQL server that is not there.
        let verify = try CLI.strata(
            ["verify", "--postgres", "postgres://nobody@127.0.0.1:1/postgres", "--rows", "2"], in: root)
        #expect(verify.status == 2, "\(verify.stderr)")
    }

    /// Before the first `generate`, `check` in text shows each missing file's first 200 lines,
    /// not every generated file in full; the JSON keeps the whole diffs.
    @Test func checkCutsLongMissingFilesShortInText() throws {
        // 30 entities: several generated files are longer than 200 lines (MyTODO's are not).
        let root = try TestPaths.temporaryFolder()
        try InterruptionTests.largeModel(in: root, entities: 30)
        let text = try CLI.strata(["check"], in: root)
        #expect(text.status == 1)
        #expect(text.stdout.contains("--- /dev/null\n+++ Generated/Large/Swift/LargeModels.swift\n@@ -0,0 +1,"))
        let notShown = text.stdout.split(separator: "\n").filter { $0.hasPrefix("\\ ") }
        #expect(notShown.count >= 3, "\(notShown)")
        #expect(notShown.allSatisfy { $0.hasSuffix(" more lines not shown: the file is missing; `generate` writes it") })
        #expect(text.stderr.contains("error: Generated/Large/Swift/LargeModels.swift is missing\n"))
        let json = try Self.json(try CLI.strata(["check", "--format", "json"], in: root))
        let diffs = try #require(json["stale"] as? [[String: Any]]).compactMap { $0["diff"] as? String }
        #expect(!diffs.joined().contains("not shown"))
        #expect(text.stdout.utf8.count < diffs.joined().utf8.count)
    }

    @Test func checkSpeaksJSON() throws {
        let root = try Self.todoCopy()
        let missing = try Self.json(try CLI.strata(["check", "--format", "json"], in: root))
        #expect(missing["current"] as? Bool == false)
        let stale = try #require(missing["stale"] as? [[String: Any]])
        #expect(
            stale.contains {
                $0["path"] as? String == "Generated/MyTODO/Swift/MyTODOModels.swift"
                    && $0["kind"] as? String == "missing"
            })
        #expect(try CLI.strata(["generate"], in: root).status == 0)
        let current = try CLI.strata(["check", "--format", "json"], in: root)
        #expect(current.status == 0)
        let object = try Self.json(current)
        #expect(object["current"] as? Bool == true)
        #expect((object["stale"] as? [Any])?.isEmpty == true)
        #expect((object["diagnostics"] as? [Any])?.isEmpty == true)
    }

    @Test func planSpeaksJSON() throws {
        let root = try Self.todoCopy()
        let result = try CLI.strata(["plan", "MyTODO", "--from", "0", "--format", "json"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try Self.json(result)
        #expect(object["model"] as? String == "MyTODO")
        #expect(object["from"] as? Int == 0 && object["to"] as? Int == 3)
        let migrations = try #require(object["migrations"] as? [[String: Any]])
        #expect(migrations.map { $0["to"] as? Int } == [1, 2, 3])
        let steps = try #require(migrations[1]["steps"] as? [[String: Any]])
        #expect(steps.first?["description"] as? String == "add field TODOItem.isDone (filled with its default false)")
        #expect(steps.first?["destructive"] as? Bool == false)
        #expect(
            (migrations[1]["sql"] as? [String])?.first?.hasPrefix("ALTER TABLE \"todo_item\" ADD COLUMN \"is_done\"")
                == true)
    }

    @Test func migrateSpeaksJSONAndReportsEachVersionOnStandardError() throws {
        let root = try Self.todoCopy()
        let result = try CLI.strata(["migrate", "--database", "todo.sqlite", "--format", "json"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try Self.json(result)
        #expect(object["from"] as? Int == 0 && object["to"] as? Int == 3)
        #expect((object["applied"] as? [[String: Any]])?.map { $0["version"] as? Int } == [1, 2, 3])
        #expect(object["error"] is NSNull)
        for version in 1...3 {
            #expect(result.stderr.contains("MyTODO: applying v\(version) (\(version) of 3)…"), "\(result.stderr)")
            #expect(result.stderr.contains("MyTODO: applied v\(version) in "), "\(result.stderr)")
        }
        // A database newer than the model (without its queries, which v2 cannot run): v3 only
        // added things, so the code of v2 runs against it and there is nothing to apply.
        try FileManager.default.removeItem(at: root.appendingPathComponent("Schemas/MyTODO/v3.yaml"))
        try FileManager.default.removeItem(at: root.appendingPathComponent("Schemas/MyTODO/queries"))
        let ahead = try CLI.strata(["migrate", "--database", "todo.sqlite", "--format", "json"], in: root)
        #expect(ahead.status == 0, "\(ahead.stderr)")
        #expect(try Self.json(ahead)["aheadOfSchemas"] as? Bool == true)
        // Refused once the ledger does not say v3 is compatible (a row Strata wrote before it recorded it).
        try DatabaseQueue(path: root.appendingPathComponent("todo.sqlite").path).write { db in
            try db.execute(sql: #"UPDATE "strata_migrations" SET "compatible_from" = NULL WHERE "version" = 3"#)
        }
        let refused = try CLI.strata(["migrate", "--database", "todo.sqlite", "--format", "json"], in: root)
        #expect(refused.status == 1)
        #expect((try Self.json(refused)["error"] as? String)?.contains("newer") == true)
    }

    @Test func migrateReportsEachRebuiltTableAsItCopiesIt() throws {
        let root = try TestPaths.temporaryFolder()
        try FileManager.default.copyItem(
            at: TestPaths.models.appendingPathComponent("Evolution"), to: root.appendingPathComponent("Evolution"))
        let result = try CLI.strata(["migrate", "--database", "evolution.sqlite", "--schemas", "."], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("Evolution: v3: copying the rows of post into its rebuilt table…"),
            "\(result.stderr)")
        #expect(SQLiteRebuildProgress.copiedTable("INSERT INTO \"strata_new_a\"\"b\" (\"x\")\nSELECT 1") == "a\"b")
        #expect(
            SQLiteRebuildProgress.copiedTable("-- a note\n\nINSERT INTO \"strata_new_post\" (\"x\") SELECT 1") == "post"
        )
        #expect(SQLiteRebuildProgress.copiedTable("INSERT INTO \"post\" (\"x\") VALUES (1)") == nil)
    }

    @Test func verifySpeaksJSONAndReportsProgressOnStandardError() throws {
        let root = try Self.todoCopy()
        let result = try CLI.strata(["verify", "--rows", "5", "--format", "json"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try Self.json(result)
        #expect(object["passed"] as? Bool == true)
        #expect(object["postgresChecked"] as? Bool == false)
        let reports = try #require(object["reports"] as? [[String: Any]])
        #expect(reports.first?["model"] as? String == "MyTODO" && reports.first?["dialect"] as? String == "sqlite")
        #expect(result.stderr.contains("MyTODO on SQLite: applying v2 and comparing rows…"), "\(result.stderr)")
        #expect(result.stderr.contains("MyTODO on SQLite: applying v3 and comparing rows…"))
    }

    @Test func headersAndHintsNameTheReadersCommand() throws {
        let root = try Self.todoCopy()
        #expect(try CLI.strata(["generate"], in: root).status == 0)
        let cli = try String(
            contentsOf: root.appendingPathComponent("Generated/MyTODO/Swift/MyTODOModels.swift"), encoding: .utf8)
        #expect(
            cli.hasPrefix(
                "// Generated by Strata \(StrataVersion.current) from MyTODO/v3.yaml. Do not edit.\n// Change the schema and run `strata generate`.\n"
            ))
        // The plugins' tool names the command plugin, in files and in hints.
        let plugin = try CLI.run(
            "strata-generator", ["generate-models", "--model-folder", "Schemas/MyTODO", "--output", "Plugin"], in: root)
        #expect(plugin.status == 0, "\(plugin.stderr)")
        let pluginFile = try String(
            contentsOf: root.appendingPathComponent("Plugin/MyTODO/sqlite/schema.sql"), encoding: .utf8)
        #expect(
            pluginFile.contains(
                "-- Change the schema and run `swift package --allow-writing-to-package-directory strata-generate`.\n"))
        try "-- stale\n".write(
            to: root.appendingPathComponent("Plugin/MyTODO/sqlite/schema.sql"), atomically: true, encoding: .utf8)
        let check = try CLI.run(
            "strata-generator",
            ["generate-models", "--check", "--model-folder", "Schemas/MyTODO", "--output", "Plugin"], in: root)
        #expect(check.status == 1)
        #expect(check.stdout.contains("--- Plugin/MyTODO/sqlite/schema.sql"))
        #expect(check.stderr.contains("run `swift package --allow-writing-to-package-directory strata-generate`"))
        let stale = try CLI.strata(["check", "--output", "Plugin"], in: root)
        #expect(stale.stderr.contains("run `strata generate`"))
    }

    /// The plugins' commands render their own model only (another model in the same folder, even a
    /// broken one, is not read, reported, rendered or written), and only the databases asked for.
    @Test func pluginCommandsRenderOnlyTheirModelAndTheDatabasesAskedFor() throws {
        let root = try Self.todoCopy()
        let broken = root.appendingPathComponent("Schemas/Broken")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try "model: Broken\nversion: 1\nentities:\n  A:\n    fields:\n      id: Strin\n".write(
            to: broken.appendingPathComponent("v1.yaml"), atomically: true, encoding: .utf8)
        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) }
        // What the plugins' commands load: the one model folder.
        let schemas = root.appendingPathComponent("Schemas").path
        let one = SchemaLoader.loadAll(from: schemas, only: "MyTODO")
        #expect(one.histories.map(\.model) == ["MyTODO"] && one.checksums.keys.sorted() == ["MyTODO"])
        #expect(!one.hasErrors, "\(one.diagnostics)")
        #expect(SchemaLoader.loadAll(from: schemas).hasErrors, "the whole folder holds the broken model")
        let absent = SchemaLoader.loadAll(from: schemas, only: "Absent")
        #expect(absent.histories.isEmpty && absent.diagnostics.map(\.message) == ["no model folder 'Absent' in '\(schemas)'"])

        let models = try CLI.run(
            "strata-generator",
            ["generate-models", "--model-folder", "Schemas/MyTODO", "--output", "Plugin", "--databases", "sqlite"], in: root)
        #expect(models.status == 0, "\(models.stderr)")
        #expect(!models.stderr.contains("Broken"), "\(models.stderr)")
        #expect(exists("Plugin/MyTODO/Swift/MyTODORepositories.swift"))
        #expect(!exists("Plugin/MyTODO/Swift/MyTODOPostgresRepositories.swift"))
        #expect(exists("Plugin/MyTODO/postgres/schema.sql"), "the SQL of every database is written")
        #expect(!exists("Plugin/Broken"))

        let build = try CLI.run(
            "strata-generator",
            ["build-plugin", "--model-folder", "Schemas/MyTODO", "--output", "Build", "--databases", "postgres"], in: root)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(exists("Build/MyTODO/Swift/MyTODOPostgresRepositories.swift"))
        #expect(exists("Build/MyTODO/Swift/MyTODOModels.swift"))
        #expect(!exists("Build/MyTODO/Swift/MyTODORepositories.swift"))
        #expect(!exists("Build/MyTODO/postgres"), "the build plugin writes Swift only")
    }

    /// `generate-models` over two model folders in different parents: each model's files are
    /// written (in one transaction, a file at a time), stale generated files are removed from
    /// each model's own output folder only, and a second run and `--check` find them current.
    @Test func generateModelsWritesEachModelAndRemovesOnlyItsOwnStaleFiles() throws {
        let root = try Self.todoCopy()
        let other = root.appendingPathComponent("More/Other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try "model: Other\nversion: 1\nentities:\n  Thing:\n    fields:\n      id: UUID\n      name: String\n".write(
            to: other.appendingPathComponent("v1.yaml"), atomically: true, encoding: .utf8)
        let header = "// Generated by Strata \(StrataVersion.current) from Gone/v1.yaml. Do not edit.\n"
        for folder in ["Plugin/MyTODO/Swift", "Plugin/Unrelated"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            try header.write(to: root.appendingPathComponent("\(folder)/Gone.swift"), atomically: true, encoding: .utf8)
        }
        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) }
        let arguments = ["--model-folder", "Schemas/MyTODO", "--model-folder", "More/Other", "--output", "Plugin"]

        let first = try CLI.run("strata-generator", ["generate-models"] + arguments, in: root)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("wrote Plugin/MyTODO/Swift/MyTODORepositories.swift"), "\(first.stdout)")
        #expect(first.stdout.contains("wrote Plugin/Other/sqlite/schema.sql"), "\(first.stdout)")
        #expect(first.stdout.contains("wrote More/Other/strata.lock"), "\(first.stdout)")
        #expect(first.stdout.contains("wrote Plugin/MyTODO/Swift/Gone.swift"), "the removal is listed: \(first.stdout)")
        #expect(!exists("Plugin/MyTODO/Swift/Gone.swift"))
        #expect(exists("Plugin/Unrelated/Gone.swift"), "another model's folder is never touched")
        #expect(exists("Plugin/Other/Swift/OtherModels.swift"))

        // Every file of both models' output folders, and their two strata.lock files.
        let files = try ["Plugin/MyTODO", "Plugin/Other"].reduce(2) { count, folder in
            let listing = try #require(FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path))
            return count + listing.compactMap { $0 as? String }.filter { $0.contains(".") }.count
        }
        let second = try CLI.run("strata-generator", ["generate-models"] + arguments, in: root)
        #expect(second.status == 0 && second.stdout == "\(files) generated files are up to date.\n", "\(second.stdout)")
        let check = try CLI.run("strata-generator", ["generate-models", "--check"] + arguments, in: root)
        #expect(check.status == 0 && check.stdout == "\(files) generated files are current.\n", "\(check.stdout)")
    }
}
