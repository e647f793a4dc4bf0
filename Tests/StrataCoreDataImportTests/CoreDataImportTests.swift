import Foundation
import GRDB
import StrataCore
import StrataCoreDataImport
import StrataCoreDataMapping
import StrataTestSupport
import Testing

/// `strata import coredata`: Core Data model versions become Strata versions that lint and generate.
@Suite struct CoreDataImportTests {
    static let fixtures = TestPaths.fixtures.appendingPathComponent("CoreData")
    static let todo = fixtures.appendingPathComponent("MyTODO.xcdatamodeld").path
    static let library = fixtures.appendingPathComponent("Library.xcdatamodeld").path
    static let bad = fixtures.appendingPathComponent("Bad")

    /// Imports into a new temporary `Schemas` folder; returns it and the outcome.
    private func importModel(_ path: String, _ options: CoreDataImporter.Options = .init()) throws -> (
        URL, CoreDataImporter.Outcome, [String]
    ) {
        let schemas = try TestPaths.temporaryFolder().appendingPathComponent("Schemas")
        let outcome = CoreDataImporter.run(path, options: options)
        #expect(!outcome.hasErrors, "\(outcome.diagnostics)")
        let (written, _) = try CoreDataImporter.write(outcome, schemas: schemas.path)
        return (schemas, outcome, written)
    }

    private func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    // MARK: - The TODO app

    @Test func theTODOAppsThreeVersionsBecomeV1ToV3() throws {
        let (schemas, outcome, written) = try importModel(Self.todo)
        #expect(outcome.order.map(\.name) == ["MyTODO", "MyTODO 2", "MyTODO 3"])
        #expect(outcome.order.map(\.isCurrent) == [false, false, true])
        let folder = schemas.appendingPathComponent("MyTODO")
        #expect(
            written.map { SchemaLoader.name(of: $0) } == ["v1.yaml", "v2.yaml", "v3.yaml", "coredata-mapping.json"])
        #expect(
            try text(folder.appendingPathComponent("v1.yaml")) == """
                # Imported by 'strata import coredata' from MyTODO.xcdatamodeld, version 'MyTODO'.
                model: MyTODO
                version: 1

                entities:
                  CDTODOItem:
                    fields:
                      id: UUID
                      detail: { type: String, default: "" }
                      title: { type: String, default: "" }

                """)
        let v2 = try text(folder.appendingPathComponent("v2.yaml"))
        #expect(v2.contains("      isDone: { type: Bool, default: false }\n"))
        #expect(!v2.contains("migration:"))
        let v3 = try text(folder.appendingPathComponent("v3.yaml"))
        #expect(v3.contains("      priority: { type: Int16, default: 2 }\n"))

        // They lint and generate.
        let plan = Workspace.plan(
            schemas: schemas.path, output: schemas.deletingLastPathComponent().appendingPathComponent("Generated").path)
        #expect(plan.diagnostics.isEmpty, "\(plan.diagnostics)")
        #expect(plan.files.contains { $0.path.hasSuffix("MyTODO/Swift/MyTODOModels.swift") })
        #expect(
            plan.files.contains {
                $0.path.hasSuffix("MyTODO/sqlite/migrations/v3.sql")
                    && $0.contents.contains("\"priority\" INTEGER NOT NULL DEFAULT 2")
            })
    }

    @Test func theMappingIsWrittenNextToTheSchemasAndTheLoaderIgnoresIt() throws {
        let (schemas, _, _) = try importModel(Self.todo, .init(model: "Todos"))
        let data = try Data(contentsOf: schemas.appendingPathComponent("Todos/coredata-mapping.json"))
        let mapping = try JSONDecoder().decode(CoreDataMapping.self, from: data)
        #expect(mapping.model == "Todos")
        #expect(mapping.source == "MyTODO.xcdatamodeld")
        #expect(mapping.versions.map(\.coreDataVersion) == ["MyTODO", "MyTODO 2", "MyTODO 3"])
        let item = mapping.versions[2].entities.first
        #expect(item?.coreDataEntity == "CDTODOItem")
        #expect(item?.fields.map(\.field) == ["id", "detail", "isDone", "priority", "title"])
        #expect(item?.fields.allSatisfy { $0.source == .attribute && $0.property == $0.field } == true)
        #expect(!SchemaLoader.loadAll(from: schemas.path).hasErrors)
    }

    // MARK: - Version order

    @Test func versionsAreInXcodesNaturalOrderWithTheCurrentOneLast() {
        let names = ["Model 10", "Model", "Model 2", "Model 3"]
        #expect(names.sorted(by: CoreDataBundle.naturalOrder) == ["Model", "Model 2", "Model 3", "Model 10"])
    }

    @Test func theCurrentVersionComesLastAndOrderOverridesIt() throws {
        let bundle = try TestPaths.copy(URL(fileURLWithPath: Self.todo))
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>MyTODO 2.xcdatamodel</string></dict></plist>
            """.utf8
        ).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        #expect(
            try CoreDataBundle.open(bundle.path, order: nil).get().versions.map(\.name) == [
                "MyTODO", "MyTODO 3", "MyTODO 2",
            ])
        let ordered = try CoreDataBundle.open(bundle.path, order: ["MyTODO", "MyTODO 2.xcdatamodel", "MyTODO 3"]).get()
        #expect(ordered.versions.map(\.name) == ["MyTODO", "MyTODO 2", "MyTODO 3"])
        guard case .failure(let error) = CoreDataBundle.open(bundle.path, order: ["MyTODO", "MyTOD 2", "MyTODO"]) else {
            Issue.record("a bad --order was accepted")
            return
        }
        let messages = error.diagnostics.map(\.message)
        #expect(
            messages.contains {
                $0.contains("--order names 'MyTOD 2', which is not a version")
                    && $0.contains("did you mean 'MyTODO 2'?")
            })
        #expect(messages.contains("--order names 'MyTODO' more than once"))
        #expect(messages.contains("--order leaves out version 'MyTODO 3': name every version once"))
    }

    @Test func aPlainModelIsOneVersionAndABundleWithoutCurrentVersionNeedsAnOrder() throws {
        let plain = URL(fileURLWithPath: Self.todo).appendingPathComponent("MyTODO 2.xcdatamodel").path
        let one = try CoreDataBundle.open(plain, order: nil).get()
        #expect(one.modelName == "MyTODO 2")
        #expect(one.versions.map(\.name) == ["MyTODO 2"])

        let bundle = try TestPaths.copy(URL(fileURLWithPath: Self.todo))
        try FileManager.default.removeItem(at: bundle.appendingPathComponent(".xccurrentversion"))
        guard case .failure(let error) = CoreDataBundle.open(bundle.path, order: nil) else {
            Issue.record("a bundle of several versions without .xccurrentversion was ordered by guess")
            return
        }
        #expect(error.diagnostics.first?.message.contains("no .xccurrentversion") == true)
        #expect(
            try CoreDataBundle.open(bundle.path, order: ["MyTODO", "MyTODO 2", "MyTODO 3"]).get().versions.count == 3)
    }

    @Test func twoVersionsWithTheSameNameAreAnErrorAndNothingIsWritten() throws {
        let bundle = try TestPaths.copy(URL(fileURLWithPath: Self.todo))
        try FileManager.default.copyItem(
            at: bundle.appendingPathComponent("MyTODO 2.xcdatamodel"),
            to: bundle.appendingPathComponent("mytodo 2.xcdatamodel"))
        let root = try TestPaths.temporaryFolder()
        let result = try CLI.strata(["import", "coredata", bundle.path], in: root)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "error: two versions have the same name: 'MyTODO 2.xcdatamodel' and 'mytodo 2.xcdatamodel'"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Schemas").path))
    }

    // MARK: - Every mapping

    @Test func everyMappingOfTheLibraryModel() throws {
        let (schemas, outcome, _) = try importModel(
            Self.library, .init(keys: ["Shelf": "code"], transformableAsData: true))
        let v1 = try text(schemas.appendingPathComponent("Library/v1.yaml"))
        let v2 = try text(schemas.appendingPathComponent("Library/v2.yaml"))
        let expectedV1 = [
            // Keys: a generated one, a required UUID 'id', one chosen with --key.
            "  Author:\n    fields:\n      id: { type: Int64, autoincrement: true }\n",
            "  Book:\n    fields:\n      id: UUID\n",
            "      code: { type: Int16, primaryKey: true }\n",
            // Types and defaults.
            "      isAlive: { type: Bool, default: true }\n", "      luckyNumber: { type: Int64, default: -7 }\n",
            "      born: Date?\n", "      addedAt: { type: Date?, default: \"2024-01-31T12:00:00.500Z\" }\n",
            "      due: { type: Date, default: \"2024-01-31T12:00:00Z\" }\n",
            "      rating: { type: Float?, default: 0.5 }\n",
            "      width: { type: Double, default: 1.25 }\n",
            "      title: { type: String, default: \"Untitled \\\"draft\\\"\" }\n",
            "      cover: Data?\n", "      metadata: Data?\n", "      pages: { type: Int32, default: 0 }\n",
            "      price: { type: Decimal?, default: \"9.99\" }\n", "      website: URL?\n",
            // Relationships: onDelete from the inverse's rule, Nullify making the reference optional.
            "      author: { type: Author?, onDelete: cascade }\n",
            "      shelf: { type: Shelf?, onDelete: setNull }\n",
            "      book: { type: Book, onDelete: restrict }\n", "      borrower: Author?\n",
            "      profile: { type: Profile?, onDelete: restrict }\n",
            "      books: { entity: Book, via: author }\n", "      loans: { entity: Loan, via: book }\n",
            // Ordered one-to-many, many-to-many (ordered), inverse-less to-many.
            "      authorPosition: { type: Int64, default: 0,",
            "  BookTags:\n", "    primaryKey: [book, tag]\n", "      tag: { type: Tag, onDelete: cascade }\n",
            "      position: { type: Int64, default: 0,", "      tags: { entity: Tag, through: BookTags, via: book }\n",
            "      books: { entity: Book, through: BookTags, via: tag }\n",
            "  BookRelated:\n", "    primaryKey: [book, related]\n",
            "      related: { type: Book, onDelete: cascade }\n",
            // Uniqueness constraints and indexes.
            "      isbn: { type: String, unique: true }\n", "      name: { type: String, unique: true }\n",
            "      - { fields: [name, born], unique: true }\n", "      - [name]\n", "      - [pages]\n",
        ]
        for line in expectedV1 { #expect(v1.contains(line), "v1.yaml lacks \(line)") }
        // Transient, derived, abstract: not stored.
        for absent in ["cachedSummary", "searchText", "  Media:", "recentBooks", "AllBooks"] {
            #expect(!v1.contains(absent))
        }
        // One-to-one: one reference.
        #expect(!v1.contains("      author: { type: Author, "))
        // Renames and data loss between versions.
        #expect(v2.contains("      fullName: { type: String, renamedFrom: name }\n"))
        #expect(
            v2.contains(
                "migration:\n  # Core Data's lightweight migration from 'Library' to 'Library 2' dropped these without asking.\n  allowDataLoss: [Book.website, Tag, BookTags]\n"
            ))
        #expect(v2.contains("  Review:\n"))

        let notes = outcome.diagnostics.filter { $0.severity == .note }.map(\.message)
        for note in [
            "transient attribute 'Book.cachedSummary' is not stored: skipped",
            "derived attribute 'Book.searchText' is not stored: skipped",
            "fetched property 'Author.recentBooks' is ignored: Strata schemas have no equivalent",
            "fetch request 'AllBooks' is ignored: Strata schemas have no equivalent",
            "configuration 'Cloud' is ignored: Strata schemas have no equivalent",
            "abstract entity 'Media' gets no table: its properties are copied into 'Book'",
            "ordered to-many 'Book.tags' keeps its order in 'BookTags.position'",
        ] {
            #expect(notes.contains(note), "missing note: \(note)")
        }
        // A note every version repeats is given once, at the newest version.
        let transient = outcome.diagnostics.filter { $0.message.hasPrefix("transient attribute 'Book.cachedSummary'") }
        #expect(transient.map(\.location.line) == [19])
        #expect(transient.first?.location.file.hasSuffix("/Library 2.xcdatamodel/contents") == true)
        #expect(transient.first?.location.column == 9)

        // The mapping names the join entity's relationship and the flattened root.
        let mapping = try JSONDecoder().decode(
            CoreDataMapping.self,
            from: Data(contentsOf: schemas.appendingPathComponent("Library/coredata-mapping.json")))
        let join = mapping.versions[0].entities.first { $0.entity == "BookTags" }
        #expect(
            join?.join
                == .init(entity: "Book", relationship: "tags", destination: "Tag", inverse: "books", ordered: true))
        #expect(mapping.versions[0].entities.first { $0.entity == "Book" }?.coreDataRoot == "Media")
        #expect(
            mapping.versions[0].entities.first { $0.entity == "Author" }?.fields.first
                == .init(field: "id", source: .primaryKey, property: nil, column: "id", type: "Int64"))
        #expect(mapping.versions[0].entities.first { $0.entity == "BookTags" }?.table == "book_tags")

        let plan = Workspace.plan(
            schemas: schemas.path, output: schemas.deletingLastPathComponent().appendingPathComponent("Generated").path)
        #expect(!plan.hasErrors, "\(plan.diagnostics)")
        #expect(plan.files.contains { $0.path.hasSuffix("Library/Swift/LibraryRepositories.swift") })
    }

    @Test func anEntitysRenamingIdentifierBecomesRenamedFrom() throws {
        let bundle = try TestPaths.temporaryFolder().appendingPathComponent("Tasks.xcdatamodeld")
        let versions = [
            (
                "Tasks",
                #"<entity name="Item" syncable="YES"><attribute name="title" attributeType="String"/><attribute name="old" optional="YES" attributeType="String"/></entity>"#
            ),
            (
                "Tasks 2",
                #"<entity name="Task" elementID="Item" syncable="YES"><attribute name="title" attributeType="String"/></entity>"#
            ),
        ]
        for (name, entity) in versions {
            let folder = bundle.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(
                #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\#n<model type="com.apple.IDECoreDataModeler.DataModel">\#n    \#(entity)\#n</model>\#n"#
                    .utf8
            )
            .write(to: folder.appendingPathComponent("contents"))
        }
        try Data(
            #"<plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Tasks 2.xcdatamodel</string></dict></plist>"#
                .utf8
        )
        .write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let (schemas, _, _) = try importModel(bundle.path)
        let v2 = try text(schemas.appendingPathComponent("Tasks/v2.yaml"))
        #expect(v2.contains("  Task:\n    renamedFrom: Item\n    fields:\n"))
        #expect(v2.contains("  allowDataLoss: [Item.old]\n"))
    }

    @Test func transformableIsAnErrorWithoutTheFlag() {
        let outcome = CoreDataImporter.run(Self.library, options: .init(keys: ["Shelf": "code"]))
        let errors = outcome.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 2)
        // Sorted by file: 'Library 2.xcdatamodel' comes before 'Library.xcdatamodel'.
        #expect(
            errors.map { String($0.message.prefix(43)) } == [
                "attribute 'Book.metadata' is Transformable:", "attribute 'Book.metadata' is Transformable:",
            ])
        #expect(errors.map(\.location.line) == [24, 26])
        #expect(errors.map(\.location.column) == [66, 66])
    }

    // MARK: - Real models

    @Test func anIDThatCannotBeTheKeyStaysAFieldAndTheGeneratedKeyIsObjectID() throws {
        let (schemas, outcome, _) = try importModel(Self.fixtures.appendingPathComponent("Accounts.xcdatamodel").path)
        let v1 = try text(schemas.appendingPathComponent("Accounts/v1.yaml"))
        for line in [
            "  Account:\n    fields:\n      objectID: { type: Int64, primaryKey: true, autoincrement: true }\n      id: String\n",
            "      - { fields: [id, domain], unique: true }\n",
            "  Session:\n    fields:\n      objectID: { type: Int64, primaryKey: true, autoincrement: true }\n      id: UUID?\n",
            // A fetch index on the ordinary field `id` is kept.
            "      - [id]\n",
            // A required UUID `id` is still the key.
            "  Token:\n    fields:\n      id: UUID\n",
        ] {
            #expect(v1.contains(line), "v1.yaml lacks \(line)")
        }
        let notes = outcome.diagnostics.filter { $0.severity == .note }.map(\.message)
        #expect(
            notes.contains(
                "attribute 'Account.id' cannot be the primary key (it is String, not a required UUID): it stays an ordinary field, and the key Strata adds (the store's Z_PK) is named 'objectID'; choose another key with --key Account.<attribute>"
            ))
        #expect(notes.contains { $0.hasPrefix("attribute 'Session.id' cannot be the primary key (it is optional)") })
        let mapping = try JSONDecoder().decode(
            CoreDataMapping.self,
            from: Data(contentsOf: schemas.appendingPathComponent("Accounts/coredata-mapping.json")))
        let account = mapping.versions[0].entities.first { $0.entity == "Account" }
        #expect(
            account?.fields.prefix(2) == [
                .init(field: "objectID", source: .primaryKey, property: nil, column: "object_id", type: "Int64"),
                .init(field: "id", source: .attribute, property: "id", column: "id", type: "String"),
            ])
        let plan = Workspace.plan(
            schemas: schemas.path, output: schemas.deletingLastPathComponent().appendingPathComponent("Generated").path)
        #expect(!plan.hasErrors, "\(plan.diagnostics)")
    }

    @Test func anIDAddedByALaterVersionKeepsTheKeyOneFieldThroughTheHistory() throws {
        let (schemas, outcome, _) = try importModel(Self.fixtures.appendingPathComponent("Statuses.xcdatamodeld").path)
        let v1 = try text(schemas.appendingPathComponent("Statuses/v1.yaml"))
        let v2 = try text(schemas.appendingPathComponent("Statuses/v2.yaml"))
        // v1 has no attribute `id`, v2 adds one that cannot be the key: the key is objectID in both,
        // and v2's `id` is a new field (not v1's key, converted).
        let key = "  Status:\n    fields:\n      objectID: { type: Int64, primaryKey: true, autoincrement: true }\n"
        #expect(v1.contains(key), "\(v1)")
        #expect(v2.contains(key + "      id: String?\n"), "\(v2)")
        #expect(!v2.contains("allowDataLoss"))
        #expect(
            outcome.mapping?.versions.map { $0.entities[0].fields[0] } == [
                .init(field: "objectID", source: .primaryKey, property: nil),
                .init(field: "objectID", source: .primaryKey, property: nil),
            ])
    }

    @Test func defaultsAreReadAsCoreDataReadsThemWithANoteWhereTheTextChanges() throws {
        let (schemas, outcome, _) = try importModel(Self.fixtures.appendingPathComponent("Accounts.xcdatamodel").path)
        let v1 = try text(schemas.appendingPathComponent("Accounts/v1.yaml"))
        for line in [
            "      followers: { type: Int16?, default: 0 }\n", "      karma: { type: Int32?, default: -2 }\n",
            "      ratio: { type: Float?, default: 100.0 }\n", "      verified: { type: Bool?, default: true }\n",
        ] {
            #expect(v1.contains(line), "v1.yaml lacks \(line)")
        }
        let notes = outcome.diagnostics.filter { $0.severity == .note }.map {
            "\($0.location.line):\($0.location.column): \($0.message)"
        }
        for note in [
            "6:99: default '0.0' of 'Account.followers' is read as 0, as Core Data reads it for Integer 16",
            "7:95: default '-2.75' of 'Account.karma' is read as -2, as Core Data reads it for Integer 32",
            "8:90: default '1e2' of 'Account.ratio' is read as 100.0, as Core Data reads it for Float",
            "9:95: default 'true' of 'Account.verified' is read as YES, as Core Data reads it for Boolean",
        ] {
            #expect(notes.contains(note), "missing note: \(note) in \(notes)")
        }
    }

    @Test func relationshipsToAnAbstractEntityLeadToItsConcreteEntities() throws {
        let (schemas, outcome, _) = try importModel(Self.fixtures.appendingPathComponent("Pets.xcdatamodel").path)
        let v1 = try text(schemas.appendingPathComponent("Pets/v1.yaml"))
        for line in [
            // One concrete entity under the abstract destination: it is the destination.
            "      badge: { type: Circle?, onDelete: setNull }\n",
            // Several: an optional reference per concrete entity.
            "      favoriteCat: { type: Cat?, onDelete: setNull }\n",
            "      favoriteDog: { type: Dog?, onDelete: setNull }\n",
            // A to-many with a to-one inverse: a hasMany per concrete entity, via the inherited reference.
            "      petsCat: { entity: Cat, via: owner }\n", "      petsDog: { entity: Dog, via: owner }\n",
            // A many-to-many: a join entity per concrete entity.
            "  CatTags:\n", "  DogTags:\n", "      animalsCat: { entity: Cat, through: CatTags, via: tag }\n",
            "      animalsDog: { entity: Dog, through: DogTags, via: tag }\n", "      tags: { entity: Tag, through: CatTags, via: cat }\n",
            // An inherited Integer 16 default written as 0.0.
            "      lives: { type: Int16?, default: 9 }\n",
        ] {
            #expect(v1.contains(line), "v1.yaml lacks \(line)")
        }
        let notes = outcome.diagnostics.filter { $0.severity == .note }.map(\.message)
        #expect(
            notes.contains(
                "relationship 'Owner.badge' leads to abstract entity 'Shape': its only concrete subentity 'Circle' is the destination"
            ))
        #expect(
            notes.contains(
                "relationship 'Owner.favorite' leads to abstract entity 'Animal': one optional reference per concrete subentity ('Cat', 'Dog'), named 'favorite<Entity>'"
            ))
        let plan = Workspace.plan(
            schemas: schemas.path, output: schemas.deletingLastPathComponent().appendingPathComponent("Generated").path)
        #expect(!plan.hasErrors, "\(plan.diagnostics)")
    }

    @Test func sqlNamesLongerThanPostgreSQLAllowsAreShortenedTheSameWayEveryTime() throws {
        let path = Self.fixtures.appendingPathComponent("LongNames.xcdatamodel").path
        let (schemas, _, _) = try importModel(path)
        let v1 = try text(schemas.appendingPathComponent("LongNames/v1.yaml"))
        for line in [
            "    table: message_related_to_many_attachments_using_the_mapped_p_",
            "      theDateOnWhichThisMessageWasLastSynchronisedWithTheServerOfRecord: { type: Date?, column: the_date_on_which_this_message_was_last_synchronised_w_",
            "      - { fields: [theDateOnWhichThisMessageWasLastSynchronisedWithTheServerOfRecord], name: message_related_to_many_attachments_using_the_mapped_p_",
        ] {
            #expect(v1.contains(line), "v1.yaml lacks \(line)")
        }
        let mapping = try #require(CoreDataImporter.run(path, options: .init()).mapping)
        let again = try #require(CoreDataImporter.run(path, options: .init()).mapping)
        #expect(mapping == again)
        let tables = try JSONDecoder().decode(
            CoreDataMapping.self,
            from: Data(contentsOf: schemas.appendingPathComponent("LongNames/coredata-mapping.json"))
        ).versions[0].entities.compactMap(\.table)
        #expect(tables.count == 3)
        #expect(Set(tables).count == 3)
        #expect(tables.allSatisfy { $0.utf8.count <= 63 }, "\(tables)")
    }

    @Test func aRequiredToOneAddedOrMadeRequiredIsAnErrorEvenWhenStoredOnTheOtherSide() throws {
        let root = try TestPaths.temporaryFolder()
        let outcome = CoreDataImporter.run(
            Self.fixtures.appendingPathComponent("Posts.xcdatamodeld").path, options: .init())
        let errors = outcome.diagnostics.filter { $0.severity == .error }.map {
            "\($0.location.line):\($0.location.column): \($0.message.prefix(86))"
        }
        #expect(
            errors == [
                "9:9: 'Post.author' becomes a required to-one relationship in version 'Posts 2', so objects ",
                "10:9: 'Post.color' is new in version 'Posts 2' and a required to-one relationship, so existi",
            ])
        #expect(
            outcome.diagnostics.filter { $0.severity == .error }.allSatisfy {
                $0.location.file.hasSuffix("Posts 2.xcdatamodel/contents")
            })
        let result = try CLI.strata(
            ["import", "coredata", Self.fixtures.appendingPathComponent("Posts.xcdatamodeld").path], in: root)
        #expect(result.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
        // Accepted on request: warnings, and the references stay optional.
        let accepted = try CLI.strata(
            [
                "import", "coredata", Self.fixtures.appendingPathComponent("Posts.xcdatamodeld").path,
                "--allow-new-required-to-one",
            ], in: root)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(
            accepted.stderr.contains(
                "Posts 2.xcdatamodel/contents:10:9: warning: 'Post.color' is new in version 'Posts 2' and a required to-one relationship, so existing objects have no destination for it: imported as Core Data stores it, the reference optional (--allow-new-required-to-one)"
            ), "\(accepted.stderr)")
        let v2 = try text(root.appendingPathComponent("Schemas/Posts/v2.yaml"))
        #expect(v2.contains("      author: { type: Writer?, onDelete: setNull }\n"))
        #expect(v2.contains("      post: { type: Post?, onDelete: setNull }\n"))
    }

    // MARK: - Bad inputs

    @Test func malformedXMLIsReportedAtItsPlaceAndNothingIsWritten() throws {
        let root = try TestPaths.temporaryFolder()
        let path = Self.bad.appendingPathComponent("Malformed.xcdatamodel").path
        let result = try CLI.strata(["import", "coredata", path], in: root)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "\(path)/contents:5:13: error: malformed XML: an end tag does not match its start tag"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
    }

    @Test func unknownTypesAndBadDefaultsAreErrorsAtTheirXMLValues() {
        let unknown = CoreDataImporter.run(
            Self.bad.appendingPathComponent("UnknownType.xcdatamodel").path, options: .init())
        #expect(
            unknown.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message.prefix(50))" } == [
                "4:48: unknown attribute type 'Integer 8' of 'Note.count'",
                "6:47: unknown attribute type 'Strng' of 'Note.when'; exp",
            ])
        #expect(unknown.schemas.isEmpty)
        let defaults = CoreDataImporter.run(
            Self.bad.appendingPathComponent("BadDefaults.xcdatamodel").path, options: .init())
        #expect(
            defaults.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" } == [
                "4:76: default 'MAYBE' of 'Note.done' does not fit Boolean: expected YES or NO",
                "5:80: default '40000' of 'Note.small' does not fit Integer 16: expected an integer that fits in 16 bits",
                "6:76: default 'high' of 'Note.ratio' does not fit Double: expected a finite number",
                "7:74: default 'not-a-uuid' of 'Note.token' does not fit UUID: expected a UUID",
                "8:78: default 'soon' of 'Note.when' does not fit Date: expected seconds since 2001-01-01",
                "9:9: attribute 'Note.id' cannot be the primary key (it is optional): it stays an ordinary field, and the key Strata adds (the store's Z_PK) is named 'objectID'; choose another key with --key Note.<attribute>",
            ])
    }

    @Test func aRequiredAttributeAddedWithoutDefaultIsAnErrorInTheXML() {
        let outcome = CoreDataImporter.run(
            Self.bad.appendingPathComponent("RequiredAdded.xcdatamodeld").path, options: .init())
        let lines = outcome.diagnostics.map { "\($0.location.line) \($0.severity): \($0.message.prefix(60))" }
        #expect(
            lines == [
                "4 error: 'Note.body' becomes required in version 'RequiredAdded 2' wi",
                "5 warning: the renaming identifier 'caption' of 'Note.heading' names no",
                "5 error: 'Note.heading' is new in version 'RequiredAdded 2' and requi",
                "6 error: 'Note.rank' is new in version 'RequiredAdded 2' and required",
            ])
        #expect(outcome.diagnostics.allSatisfy { $0.location.file.hasSuffix("RequiredAdded 2.xcdatamodel/contents") })
    }

    @Test func anExistingModelFolderIsNeverOverwritten() throws {
        let (schemas, outcome, _) = try importModel(Self.todo)
        let before = try text(schemas.appendingPathComponent("MyTODO/v1.yaml"))
        #expect(throws: CoreDataImporter.WriteFailure.self) {
            try CoreDataImporter.write(outcome, schemas: schemas.path)
        }
        #expect(try text(schemas.appendingPathComponent("MyTODO/v1.yaml")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: schemas.path) == ["MyTODO"])
    }

    @Test func keysNamedOnTheCommandLineMustExist() {
        let outcome = CoreDataImporter.run(Self.todo, options: .init(keys: ["CDTODOItm": "id", "CDTODOItem": "title"]))
        let messages = outcome.diagnostics.map(\.message)
        #expect(
            messages.contains(
                "--key names entity 'CDTODOItm', which no version of the model has; did you mean 'CDTODOItem'?"))
        // A required String may be the key.
        #expect(!messages.contains { $0.contains("--key CDTODOItem.title") })
    }

    // MARK: - The command line

    @Test func aFolderThatCannotBeWrittenExits2AndLeavesNothing() throws {
        let root = try TestPaths.temporaryFolder()
        try Data("a file, not a folder".utf8).write(to: root.appendingPathComponent("Schemas"))
        let result = try CLI.strata(["import", "coredata", Self.todo], in: root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: cannot write the imported schemas under 'Schemas'"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["Schemas"])
    }

    @Test func theCommandPrintsTheOrderAndWritesTheFiles() throws {
        let root = try TestPaths.temporaryFolder()
        let result = try CLI.strata(
            ["import", "coredata", Self.todo, "--schemas", "Models", "--model", "Todo"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  v1: MyTODO\n  v2: MyTODO 2\n  v3: MyTODO 3 (current)\n"))
        #expect(result.stdout.contains("wrote Models/Todo/v3.yaml"))
        #expect(try CLI.strata(["lint", "--schemas", "Models"], in: root).status == 0)
        #expect(try CLI.strata(["generate", "--schemas", "Models"], in: root).status == 0)
        let help = try CLI.strata(["help", "import", "coredata"])
        #expect(help.stdout.contains("--transformable-as-data"))
        #expect(try CLI.strata(["import", "coredata", Self.todo, "--key", "nodot"], in: root).status == 64)
    }
}

/// `strata import coredata-store`: the command line of moving a Core Data store's rows.
@Suite struct CoreDataStoreCommandTests {
    /// A folder with `Schemas/MyTODO` imported from the TODO app's Core Data model, and the store
    /// the script `name` describes at `store.sqlite`.
    private func project(store name: String, model: String = CoreDataImportTests.todo) throws -> URL {
        let root = try TestPaths.temporaryFolder()
        let outcome = CoreDataImporter.run(model, options: .init())
        _ = try CoreDataImporter.write(outcome, schemas: root.appendingPathComponent("Schemas").path)
        let sql = try String(
            contentsOf: CoreDataImportTests.fixtures.appendingPathComponent("Stores/\(name).sql"), encoding: .utf8)
        try DatabaseQueue(path: root.appendingPathComponent("store.sqlite").path).write { db in try db.execute(sql: sql)
        }
        return root
    }

    @Test func movesTheStoreOnceAndSaysSoTheSecondTime() throws {
        let root = try project(store: "MyTODO-2")
        let arguments = ["import", "coredata-store", "--store", "store.sqlite", "--database", "app.sqlite"]
        let first = try CLI.strata(arguments, in: root)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "MyTODO: the store was at v2; copied 3 rows into app.sqlite and migrated it to v3\n")
        let second = try CLI.strata(arguments, in: root)
        #expect(second.status == 0)
        #expect(second.stdout.contains("already holds the rows of a Core Data store (imported at v2); nothing to do"))
        let titles = try DatabaseQueue(path: root.appendingPathComponent("app.sqlite").path).read { db in
            try String.fetchAll(db, sql: "SELECT title FROM cdtodo_item ORDER BY title")
        }
        #expect(titles == ["Buy groceries", "Call the plumber", "Write the book"])
    }

    @Test func flattenedEntitiesReferencesOrderAndManyToManyPairsMove() throws {
        let root = try project(
            store: "Journal", model: CoreDataImportTests.fixtures.appendingPathComponent("Journal.xcdatamodel").path)
        let result = try CLI.strata(
            ["import", "coredata-store", "--store", "store.sqlite", "--database", "app.sqlite"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Journal: the store was at v1; copied 9 rows into app.sqlite and migrated it to v1\n")
        let database = try DatabaseQueue(path: root.appendingPathComponent("app.sqlite").path)
        let notes = try database.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT id, created, title, amount, mood, starred, hex(folder), folder_position FROM note ORDER BY id"
            )
        }
        #expect(notes.map { $0[0] as Int64 } == [1, 2, 3])
        #expect(
            notes.map { $0[1] as Double } == [728395200.25, 728481600, -31622400.5],
            "dates: seconds since 2001, unchanged")
        #expect(notes.map { $0[2] as String } == ["Standup notes", "Plan the week", "A diary entry of 2000"])
        #expect(notes.map { $0[3] as String? } == ["12.5", nil, "3"], "decimals become Strata's text")
        #expect(notes.map { $0[4] as Int } == [5, 3, 1])
        #expect(notes.map { $0[5] as Bool } == [true, false, false])
        #expect(
            notes.map { $0[6] as String? } == [
                "A1B2C3D4E5F647188990AABBCCDDEEFF", "A1B2C3D4E5F647188990AABBCCDDEEFF", "",
            ], "the folder's UUID key")
        #expect(notes.map { $0[7] as Int64 } == [1, 0, 0])
        let pairs = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT label, note, position FROM label_notes ORDER BY label, note").map {
                [$0[0], $0[1], $0[2]] as [Int64]
            }
        }
        #expect(pairs == [[1, 1, 0], [2, 1, 1], [2, 3, 0]])
        #expect(
            try database.read { db in try String.fetchAll(db, sql: "SELECT name FROM label ORDER BY id") } == [
                "urgent", "later",
            ])
    }

    @Test func referencesToAbstractEntitiesMoveToTheReferenceOfTheObjectsEntity() throws {
        let root = try project(
            store: "Pets", model: CoreDataImportTests.fixtures.appendingPathComponent("Pets.xcdatamodel").path)
        let result = try CLI.strata(
            ["import", "coredata-store", "--store", "store.sqlite", "--database", "app.sqlite"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Pets: the store was at v1; copied 11 rows into app.sqlite and migrated it to v1\n")
        let database = try DatabaseQueue(path: root.appendingPathComponent("app.sqlite").path)
        let owners = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, badge, favorite_cat, favorite_dog FROM owner ORDER BY id").map {
                "\($0[0] as Int64) \($0[1] as String) \(($0[2] as Int64?).map(String.init) ?? "-") \(($0[3] as Int64?).map(String.init) ?? "-") \(($0[4] as Int64?).map(String.init) ?? "-")"
            }
        }
        #expect(owners == ["1 Ann 1 - 2", "2 Bob - 3 -"])
        let animals = try database.read { db in
            try String.fetchAll(db, sql: "SELECT name || ':' || ifnull(owner, '-') FROM cat ORDER BY id")
                + String.fetchAll(db, sql: "SELECT name || ':' || ifnull(owner, '-') FROM dog ORDER BY id")
        }
        #expect(animals == ["Tom:1", "Kit:-", "Rex:1"])
        let pairs = try database.read { db in
            try String.fetchAll(db, sql: "SELECT 'cat ' || cat || '-' || tag FROM cat_tags ORDER BY 1")
                + String.fetchAll(db, sql: "SELECT 'dog ' || dog || '-' || tag FROM dog_tags ORDER BY 1")
        }
        #expect(pairs == ["cat 1-2", "cat 3-2", "dog 2-1"])
    }

    @Test func theGeneratedKeyObjectIDTakesZPKAndTheIDAttributeItsValue() throws {
        let root = try project(
            store: "Accounts", model: CoreDataImportTests.fixtures.appendingPathComponent("Accounts.xcdatamodel").path)
        let result = try CLI.strata(
            ["import", "coredata-store", "--store", "store.sqlite", "--database", "app.sqlite"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Accounts: the store was at v1; copied 4 rows into app.sqlite and migrated it to v1\n")
        let accounts = try DatabaseQueue(path: root.appendingPathComponent("app.sqlite").path).read { db in
            try String.fetchAll(
                db, sql: "SELECT object_id || ' ' || id || '@' || domain FROM account ORDER BY object_id")
        }
        #expect(accounts == ["3 109348@mastodon.social", "7 109348@example.org"])
    }

    @Test func aReferenceToAnAbstractEntityThatNamesNoObjectOfItIsRefused() throws {
        let root = try project(
            store: "Pets", model: CoreDataImportTests.fixtures.appendingPathComponent("Pets.xcdatamodel").path)
        try DatabaseQueue(path: root.appendingPathComponent("store.sqlite").path).write { db in
            try db.execute(sql: "UPDATE ZOWNER SET ZFAVORITE = 42 WHERE Z_PK = 2")
        }
        let result = try CLI.strata(
            ["import", "coredata-store", "--store", "store.sqlite", "--database", "app.sqlite"], in: root)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "row Z_PK 2 of table ZOWNER has ZFAVORITE = 42, which names no object of 'Cat', 'Dog'; nothing was imported"
            ), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("app.sqlite").path))
    }

    @Test func aStoreOfAnotherModelExits1AndOneThatIsNotSQLiteExits2() throws {
        let root = try project(store: "OtherModel")
        let other = try CLI.strata(
            ["import", "coredata-store", "--store", "store.sqlite", "--database", "app.sqlite"], in: root)
        #expect(other.status == 1)
        #expect(other.stderr.contains("error: 'store.sqlite' is not a store of model 'MyTODO' at any of its versions"))
        try Data(repeating: 0x41, count: 200).write(to: root.appendingPathComponent("text.sqlite"))
        let text = try CLI.strata(
            ["import", "coredata-store", "--store", "text.sqlite", "--database", "app.sqlite"], in: root)
        #expect(text.status == 2)
        #expect(text.stderr.contains("error: 'text.sqlite' is not a Core Data SQLite store"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("app.sqlite").path))
        // A model that was not imported from Core Data.
        try FileManager.default.removeItem(at: root.appendingPathComponent("Schemas/MyTODO/coredata-mapping.json"))
        let plain = try CLI.strata(
            ["import", "coredata-store", "--store", "store.sqlite", "--database", "app.sqlite"], in: root)
        #expect(plain.status == 64)
        #expect(plain.stderr.contains("was not imported from Core Data"))
    }
}
