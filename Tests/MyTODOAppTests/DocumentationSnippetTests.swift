import Foundation
import StrataTestSupport
import Testing

/// The Swift the README and the guide show a newcomer compiles against the generated MyTODO
/// module: every ```swift block of `README.md` and `Docs/UsingTheGeneratedCode.md` that starts
/// with `import MyTODO` is type-checked as the body of an async throwing function given `url`
/// and `render`, the two names the snippets leave to the reader.
@Suite("Documentation: the held Swift snippets compile")
struct DocumentationSnippetTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The ```swift blocks of a Markdown file whose first line is `import MyTODO`.
    static func heldSnippets(in relativePath: String) throws -> [String] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
        var snippets: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if var lines = current {
                if line.hasPrefix("```") {
                    if lines.first == "import MyTODO" { snippets.append(lines.dropFirst().joined(separator: "\n")) }
                    current = nil
                } else {
                    lines.append(line)
                    current = lines
                }
            } else if line == "```swift" {
                current = []
            }
        }
        return snippets
    }

    static func typeCheck(_ snippet: String) throws -> (status: Int32, output: String) {
        let arguments = try #require(
            TypeSafetyTests.compilerArguments(), "the MyTODO module was not found next to the test bundle")
        let file = TestScratch.path("readme-snippet", suffix: ".swift")
        defer { try? FileManager.default.removeItem(at: file) }
        let source = """
            import Foundation
            import MyTODO
            import StrataSQLite

            func snippet(url: URL, render: (Any) -> Void) async throws {
            \(snippet)
            }
            """
        try source.write(to: file, atomically: true, encoding: .utf8)
        return try TypeSafetyTests.swiftc(["-typecheck", "-swift-version", "6"] + arguments + [file.path])
    }

    @Test("a doc's held Swift snippets compile against MyTODO", arguments: ["README.md", "Docs/UsingTheGeneratedCode.md"])
    func heldSnippetsCompile(file: String) throws {
        let snippets = try Self.heldSnippets(in: file)
        #expect(!snippets.isEmpty, "\(file) holds no ```swift block starting with `import MyTODO`")
        for snippet in snippets {
            let result = try Self.typeCheck(snippet)
            #expect(result.status == 0, "\(file): a snippet does not compile:\n\(snippet)\n\(result.output)")
        }
    }

    @Test("the check fails on a snippet that does not compile")
    func aBrokenSnippetFails() throws {
        let result = try Self.typeCheck("let db = try MyTODODatabase.inMemory()\n_ = try db.todoItems.fetchAll(where: { $0.isDone == \"no\" })")
        #expect(result.status != 0)
    }
}
