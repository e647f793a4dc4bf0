import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// `strata.yaml`'s `access`: every generated declaration at the level asked for, the SQL a file
/// embeds untouched.
@Suite struct AccessLevelTests {
    /// The lines of `text` that start (after indentation) with `word` and a space.
    private func declarations(_ word: String, in text: String) -> Int {
        text.split(separator: "\n").filter { $0.drop { $0 == " " }.hasPrefix(word + " ") }.count
    }

    @Test func everyPublicDeclarationOfShowcaseBecomesInternalOrPackage() throws {
        let history = try #require(SchemaLoader.loadModel(named: "Showcase", in: TestPaths.models.path).0)
        let published = Generator.files(for: history, outputs: .swiftOnly)
        #expect(published.count > 5)
        for access in [AccessLevel.internal, .package] {
            let files = Generator.files(for: history, outputs: .swiftOnly, access: access)
            #expect(files.map(\.path) == published.map(\.path))
            for (file, original) in zip(files, published) {
                #expect(declarations("public", in: file.contents) == 0, "\(file.path)")
                #expect(
                    declarations(access.rawValue, in: file.contents)
                        == declarations("public", in: original.contents) + declarations(access.rawValue, in: original.contents),
                    "\(file.path)")
                // Nothing else changes: respelling the level back gives the public file.
                #expect(
                    file.contents.replacingOccurrences(of: "\(access.rawValue) ", with: "public ")
                        == original.contents.replacingOccurrences(of: "\(access.rawValue) ", with: "public "),
                    "\(file.path)")
            }
        }
        #expect(Generator.files(for: history, outputs: .swiftOnly, access: .public) == published)
    }

    @Test func linesOfMultilineStringLiteralsAreText() {
        let text = """
            public enum M {
                public static let sql = #\"\"\"
                    public text of the literal
                        public too
                    \"\"\"#
                public static let other = \"\"\"
                    public again
                    \"\"\"
                public var publicity: Int { 1 }
                let x = "public "
            }
            """
        #expect(
            AccessLevel.internal.apply(to: text) == """
                internal enum M {
                    internal static let sql = #\"\"\"
                        public text of the literal
                            public too
                        \"\"\"#
                    internal static let other = \"\"\"
                        public again
                        \"\"\"
                    internal var publicity: Int { 1 }
                    let x = "public "
                }
                """)
        #expect(AccessLevel.public.apply(to: text) == text)
    }
}
