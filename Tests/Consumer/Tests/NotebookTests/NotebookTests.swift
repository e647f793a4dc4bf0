import Foundation
import Notebook
import Testing

@Suite struct NotebookTests {
    @Test func generatedModelHasTheLatestVersionsFieldsAndDefaults() {
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        let note = Note(title: "Groceries", createdAt: created)
        #expect(note.body == "")
        #expect(note.pinned == false)
        #expect(note.color == .plain)
        #expect(note.createdAt == created)
    }

    @Test func generatedEnumReadsUnknownRawValuesAsItsUnknownCase() throws {
        #expect(Color.allCases == [.plain, .red, .green, .blue])
        let decoded = try JSONDecoder().decode([Color].self, from: Data(#"["red", "purple"]"#.utf8))
        #expect(decoded == [.red, .plain])
    }

    @Test func targetCodeUsesTheGeneratedTypes() {
        let old = Note(title: "old", createdAt: Date(timeIntervalSince1970: 1))
        let new = Note(title: "new", createdAt: Date(timeIntervalSince1970: 2))
        let pinned = Note(title: "pinned", createdAt: Date(timeIntervalSince1970: 0), pinned: true, color: .red)
        #expect(Note.displayOrder([old, new, pinned]).map(\.title) == ["pinned", "new", "old"])
    }
}
