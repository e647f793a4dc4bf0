import Foundation
import StrataCore
import StrataCoreDataImport
import StrataSQLite
import StrataTestSupport
import Testing

/// The Swift generated from imported Core Data models compiles (this target) and works: the
/// Library model (every mapping of `strata import coredata`) and the TODO app's model. The schemas
/// and generated code are committed; regenerate them with
/// `strata import coredata Tests/Fixtures/CoreData/Library.xcdatamodeld --schemas Tests/ImportedCoreDataModelTests/Schemas --key Shelf.code --transformable-as-data`,
/// `strata import coredata Tests/Fixtures/CoreData/MyTODO.xcdatamodeld --schemas Tests/ImportedCoreDataModelTests/Schemas`,
/// then `strata generate --schemas Tests/ImportedCoreDataModelTests/Schemas --output Tests/ImportedCoreDataModelTests/Generated --databases sqlite`.
@Suite struct ImportedCoreDataModelTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let folder = root.appendingPathComponent("Tests/ImportedCoreDataModelTests")

    @Test(
        "the committed schemas are what the import writes today",
        arguments: [
            (
                "Library.xcdatamodeld", "Library",
                CoreDataImporter.Options(keys: ["Shelf": "code"], transformableAsData: true)
            ),
            ("MyTODO.xcdatamodeld", "MyTODO", CoreDataImporter.Options()),
        ])
    func schemasAreCurrent(bundle: String, model: String, options: CoreDataImporter.Options) throws {
        let outcome = CoreDataImporter.run(
            Self.root.appendingPathComponent("Tests/Fixtures/CoreData/\(bundle)").path, options: options)
        let schemas = TestScratch.path("strata-import")
        let (written, _) = try CoreDataImporter.write(outcome, schemas: schemas.path)
        for path in written {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let committed = try String(
                contentsOf: Self.folder.appendingPathComponent("Schemas/\(model)/\(name)"), encoding: .utf8)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == committed, "Schemas/\(model)/\(name) is stale")
        }
    }

    @Test func theCommittedGeneratedCodeIsCurrent() {
        let plan = Workspace.plan(
            schemas: Self.folder.appendingPathComponent("Schemas").path,
            output: Self.folder.appendingPathComponent("Generated").path,
            databases: [.sqlite])
        #expect(!plan.hasErrors, "\(plan.diagnostics)")
        #expect(Workspace.check(plan).isEmpty, "regenerate Tests/ImportedCoreDataModelTests/Generated")
    }

    @Test func theLibrarysReferencesJoinEntitiesAndKeysWork() throws {
        let library = try LibraryDatabase.inMemory()
        let ada = try library.authors.insert(Author(fullName: "Ada"))
        let shelf = try library.shelfs.insert(Shelf(code: 7))
        let book = try library.books.insert(
            Book(isbn: "978-0", metadata: Data([1, 2]), author: ada.id, shelf: shelf.code, authorPosition: 1))
        let other = try library.books.insert(Book(isbn: "978-1", author: ada.id))
        try library.bookRelateds.insert(BookRelated(book: book.id, related: other.id))
        let review = try library.reviews.insert(Review(text: "good", book: book.id))

        #expect(
            try library.authors.books(of: ada, orderBy: { [$0.authorPosition.ascending] }).map(\.id) == [
                other.id, book.id,
            ])
        // A Core Data many-to-many is declared once, through its join entity: related books are Books.
        #expect(try library.books.related(of: book).map(\.id) == [other.id])
        let families = try library.books.fetchAll(orderBy: { [$0.isbn.ascending] }, including: .related)
        #expect(families.map { $0.children.map(\.id) } == [[other.id], []], "eager loading through the join entity")
        #expect(try library.reviews.book(of: review) == book)
        #expect(book.title == "Untitled \"draft\"")
        #expect(book.price == Decimal(string: "9.99"))

        // Shelf.books is Nullify: deleting the shelf clears the reference.
        #expect(try library.shelfs.delete(code: 7))
        #expect(try library.books.find(id: book.id)?.shelf == nil)
        // Author.books is Cascade: deleting the author deletes the books, their reviews and pairs.
        #expect(try library.authors.delete(ada))
        #expect(try library.books.count() == 0)
        #expect(try library.reviews.count() == 0)
        #expect(try library.bookRelateds.count() == 0)
    }

    @Test func theTODOAppsImportedModelStoresItsItems() throws {
        let database = try MyTODODatabase.inMemory()
        let item = try database.cdtodoItems.insert(CDTODOItem(title: "Write the importer"))
        #expect(item.isDone == false)
        #expect(item.priority == 2)
        #expect(try database.cdtodoItems.find(id: item.id) == item)
    }
}
