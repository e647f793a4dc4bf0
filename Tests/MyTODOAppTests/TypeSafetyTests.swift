import Foundation
import StrataRelease
import StrataTestSupport
import Testing

/// Wrong uses of the generated filter API are compile errors. The test type-checks two small
/// snippets against the built MyTODO module: the correct one must compile (which proves the
/// setup), the wrong one must fail with a type error.
@Suite("TODO app: type-safe filters")
struct TypeSafetyTests {
    /// The build folder's module directory and the C module maps, found from the test bundle.
    static func compilerArguments() -> [String]? {
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<6 {
            let modules = folder.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: modules.appendingPathComponent("MyTODO.swiftmodule").path) {
                var arguments = ["-I", modules.path]
                // The C modules of the dependencies (swift-nio's, swift-atomics'… under PostgresNIO):
                // SwiftPM writes a module map for each into its target's build folder.
                let builds = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                for build in builds.sorted() where build.hasSuffix(".build") {
                    let map = folder.appendingPathComponent(build).appendingPathComponent("module.modulemap")
                    if FileManager.default.fileExists(atPath: map.path) {
                        arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"]
                    }
                }
                // The scratch folder holds checkouts/: the C modules that ship their own module map
                // (GRDB's SQLite, swift-atomics' shims…).
                var scratch = folder
                for _ in 0..<4 {
                    let checkouts = scratch.appendingPathComponent("checkouts")
                    if let packages = try? FileManager.default.contentsOfDirectory(atPath: checkouts.path) {
                        for package in packages.sorted() {
                            let sources = checkouts.appendingPathComponent(package).appendingPathComponent("Sources")
                            for target in ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []).sorted() {
                                for map in ["include/module.modulemap", "module.modulemap"] {
                                    let path = sources.appendingPathComponent(target).appendingPathComponent(map).path
                                    if FileManager.default.fileExists(atPath: path) {
                                        arguments += ["-Xcc", "-fmodule-map-file=\(path)"]
                                    }
                                }
                            }
                        }
                        break
                    }
                    scratch.deleteLastPathComponent()
                }
                return arguments
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    private static func typeCheck(_ body: String) throws -> (status: Int32, output: String) {
        let arguments = try #require(compilerArguments(), "the MyTODO module was not found next to the test bundle")
        let file = TestScratch.path("snippet", suffix: ".swift")
        defer { try? FileManager.default.removeItem(at: file) }
        let source = """
            import MyTODO
            import StrataSQLite

            func check(_ database: MyTODODatabase) throws {
                \(body)
            }
            """
        try source.write(to: file, atomically: true, encoding: .utf8)
        return try swiftc(["-typecheck", "-swift-version", "6"] + arguments + [file.path])
    }

    /// Runs `swiftc` with `arguments`: its exit status and everything it printed.
    static func swiftc(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test("filtering isDone against a Bool compiles; against a String it does not")
    func isDoneAgainstStringDoesNotCompile() throws {
        let good = try Self.typeCheck("_ = try database.todoItems.fetchAll(where: { $0.isDone == false })")
        #expect(good.status == 0, "\(good.output)")

        let bad = try Self.typeCheck(#"_ = try database.todoItems.fetchAll(where: { $0.isDone == "x" })"#)
        #expect(bad.status != 0)
        #expect(
            bad.output.contains("cannot convert value of type 'String' to expected argument type 'Bool'"),
            "\(bad.output)"
        )
    }

    @Test("an enum field compares with its cases, not with raw values")
    func priorityAgainstRawValueDoesNotCompile() throws {
        let good = try Self.typeCheck("_ = try database.todoItems.count(where: { $0.priority >= .high })")
        #expect(good.status == 0, "\(good.output)")
        let bad = try Self.typeCheck(
            "let raw: Int16 = 3; _ = try database.todoItems.count(where: { $0.priority >= raw })")
        #expect(bad.status != 0)
        #expect(bad.output.contains("cannot be applied to operands"), "\(bad.output)")
    }

    @Test("a named query's parameters and row properties have the types of their columns")
    func namedQueriesAreTyped() throws {
        let good = try Self.typeCheck(
            "let items: [TODOItem] = try database.filteredItems(isDone: false); let count: Int = try database.openCountsByPriority()[0].count; _ = items; _ = count")
        #expect(good.status == 0, "\(good.output)")
        let bad = try Self.typeCheck(#"_ = try database.filteredItems(isDone: "no")"#)
        #expect(bad.status != 0)
        #expect(bad.output.contains("cannot convert value of type 'String' to expected argument type 'Bool'"), "\(bad.output)")
        let wrongRow = try Self.typeCheck("let priority: Int16 = try database.openCountsByPriority()[0].priority; _ = priority")
        #expect(wrongRow.status != 0)
        #expect(wrongRow.output.contains("cannot convert value of type 'Priority' to specified type 'Int16'"), "\(wrongRow.output)")
    }

    @Test("aggregates are typed by their column: no sum of text, no max of a Bool, the max of an enum is the enum")
    func aggregatesAreTyped() throws {
        let good = try Self.typeCheck("""
            let top: Priority? = try database.todoItems.aggregate { $0.priority.max }
            let count: Int = try database.todoItems.aggregate({ $0.title.count }, where: { $0.isDone == false })
            let groups: [StrataGroup<Priority, Int>] = try database.todoItems.count(groupedBy: { $0.priority })
            _ = (top, count, groups)
            """)
        #expect(good.status == 0, "\(good.output)")
        let sumOfText = try Self.typeCheck("_ = try database.todoItems.aggregate { $0.title.sum }")
        #expect(sumOfText.status != 0)
        #expect(sumOfText.output.contains("sum"), "\(sumOfText.output)")
        let maxOfBool = try Self.typeCheck("_ = try database.todoItems.aggregate { $0.isDone.max }")
        #expect(maxOfBool.status != 0)
        let wrongType = try Self.typeCheck("let top: Int16? = try database.todoItems.aggregate { $0.priority.max }; _ = top")
        #expect(wrongType.status != 0)
    }

    @Test("a join's filter is typed on both tables, and its reference must hold the partner's key")
    func joinsAreTyped() throws {
        // TODOItem has no reference: its key, joined to itself, stands in for one.
        let good = try Self.typeCheck("""
            _ = try database.todoItems.fetchAll(
                joining: TODOItem.self, on: \\.id, where: { item, same in item.isDone == false && same.title == "x" })
            """)
        #expect(good.status == 0, "\(good.output)")
        let wrongValue = try Self.typeCheck("""
            _ = try database.todoItems.fetchAll(joining: TODOItem.self, on: \\.id, where: { _, same in same.title == 3 })
            """)
        #expect(wrongValue.status != 0)
        let notAKey = try Self.typeCheck("_ = try database.todoItems.fetchAll(joining: TODOItem.self, on: \\.title)")
        #expect(notAKey.status != 0)
    }

    @Test("code generated for another runtime API does not compile, and the message names both versions")
    func codeForAnotherRuntimeAPIDoesNotCompile() throws {
        let good = try Self.typeCheck("enum Current: StrataRuntimeAPI\(StrataVersion.runtimeAPI) {}")
        #expect(good.status == 0, "\(good.output)")
        let bad = try Self.typeCheck("enum Older: StrataRuntimeAPI1 {}")
        #expect(bad.status != 0)
        #expect(
            bad.output.contains("generated for StrataRuntime API 1") && bad.output.contains("has API \(StrataVersion.runtimeAPI)"), "\(bad.output)")
    }
}
