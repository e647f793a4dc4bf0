import Foundation
import GRDB
import StrataTestSupport
import Testing

/// `strata import coredata-store` on stores laid out the way Core Data itself writes them (the
/// corpus's `LAYOUT.md`): versions recognised from the whole layout, never guessed; one-to-one
/// relationships keyed on both sides; inheritance in the root's table; join tables; rows only in
/// the `-wal` file; rows checked one by one. Every model and store here is written by the test.
@Suite struct CoreDataStoreLayoutTests {
    // MARK: - Fixtures

    /// A Core Data model bundle `<name>.xcdatamodeld` with one version per `(name, entities XML)`,
    /// the last one current.
    static func bundle(_ name: String, _ versions: [(String, String)], in folder: URL) throws -> String {
        let bundle = folder.appendingPathComponent("\(name).xcdatamodeld")
        for (version, entities) in versions {
            let directory = bundle.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let xml = """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                \(entities)
                </model>
                """
            try Data(xml.utf8).write(to: directory.appendingPathComponent("contents"))
        }
        let current = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(versions.last?.0 ?? "").xcdatamodel</string></dict></plist>
            """
        try Data(current.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        return bundle.path
    }

    /// Core Data's own tables; `modelCache: false` for a store of framework versions before 637.
    static func systemTables(_ entities: [(Int, String, Int, Int)], modelCache: Bool = true) -> String {
        """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        \(modelCache ? "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);" : "")
        INSERT INTO Z_METADATA VALUES (1, 'E2A1C3B4-0000-4000-8000-000000000001', NULL);
        """
            + entities.map { "INSERT INTO Z_PRIMARYKEY VALUES (\($0.0), '\($0.1)', \($0.2), \($0.3));" }.joined(
                separator: "\n")
    }

    /// A project folder with `Schemas/<model>` imported from `bundle`.
    static func project(_ name: String, _ versions: [(String, String)]) throws -> URL {
        let root = try TestPaths.temporaryFolder()
        let bundle = try bundle(name, versions, in: root)
        // The Posts model's v3 adds the required one-to-one Post.color (wibosco's app filled it with a
        // mapping model): accepted, the reference optional.
        let result = try CLI.strata(
            ["import", "coredata", bundle, "--schemas", "Schemas", "--allow-new-required-to-one"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        return root
    }

    /// Writes a store from SQL; `wal: true` leaves its rows in the `-wal` file only.
    static func store(_ sql: String, at path: URL, wal: Bool = false) throws {
        if wal {
            let writer = try TestPaths.temporaryFolder().appendingPathComponent("writer.sqlite")
            let pool = try DatabasePool(path: writer.path)
            try pool.write { db in try db.execute(sql: sql) }
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(atPath: writer.path + suffix, toPath: path.path + suffix)
            }
            try pool.close()
        } else {
            try DatabaseQueue(path: path.path).write { db in try db.execute(sql: sql) }
        }
    }

    static func importStore(_ root: URL, store: String = "store.sqlite") throws -> CLI.Result {
        try CLI.strata(["import", "coredata-store", "--store", store, "--database", "app.sqlite"], in: root)
    }

    static func rows(_ root: URL, _ sql: String) throws -> [[String]] {
        try DatabaseQueue(path: root.appendingPathComponent("app.sqlite").path).read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                (0..<row.count).map { index in
                    let value: DatabaseValue = row[index]
                    return value.isNull ? "NULL" : "\(value.storage)"
                }
            }
        }
    }

    // MARK: - A one-to-one, and the versions around it (from a real store family)

    /// v1: a String `color`; v2: `hexColor`; v3: a one-to-one Post.color <-> Color.post; v4: `hide`.
    static let posts: [(String, String)] = [
        (
            "Posts",
            """
            <entity name="Post" representedClassName="Post" syncable="YES">
                <attribute name="color" optional="YES" attributeType="String"/>
                <attribute name="date" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="postID" optional="YES" attributeType="String"/>
            </entity>
            """
        ),
        (
            "Posts 2",
            """
            <entity name="Post" representedClassName="Post" syncable="YES">
                <attribute name="date" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="hexColor" optional="YES" attributeType="String"/>
                <attribute name="postID" optional="YES" attributeType="String"/>
            </entity>
            """
        ),
        ("Posts 3", colorAndPost(hide: false)),
        ("Posts 4", colorAndPost(hide: true)),
    ]

    static func colorAndPost(hide: Bool) -> String {
        """
        <entity name="Color" representedClassName="Color" syncable="YES">
            <attribute name="colorID" optional="YES" attributeType="String"/>
            <attribute name="hex" optional="YES" attributeType="String"/>
            <relationship name="post" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Post" inverseName="color" inverseEntity="Post"/>
        </entity>
        <entity name="Post" representedClassName="Post" syncable="YES">
            <attribute name="date" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
            \(hide ? "<attribute name=\"hide\" optional=\"YES\" attributeType=\"Boolean\" defaultValueString=\"NO\" usesScalarValueType=\"YES\"/>" : "")
            <attribute name="postID" optional="YES" attributeType="String"/>
            <relationship name="color" maxCount="1" deletionRule="Nullify" destinationEntity="Color" inverseName="post" inverseEntity="Color"/>
        </entity>
        """
    }

    /// A store at v3 (or v4 with `hide`): the one-to-one keyed on both sides, ZPOST.ZCOLOR and ZCOLOR.ZPOST.
    static func postsStore(rows: Int, hide: Bool) -> String {
        var sql = """
            CREATE TABLE ZCOLOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPOST INTEGER, ZCOLORID VARCHAR, ZHEX VARCHAR );
            CREATE TABLE ZPOST ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, \(hide ? "ZHIDE INTEGER, " : "")ZCOLOR INTEGER, ZDATE TIMESTAMP, ZPOSTID VARCHAR );
            CREATE INDEX ZCOLOR_ZPOST_INDEX ON ZCOLOR (ZPOST);
            CREATE INDEX ZPOST_ZCOLOR_INDEX ON ZPOST (ZCOLOR);

            """ + systemTables([(1, "Color", 0, rows), (2, "Post", 0, rows)])
        for row in 1...rows {
            sql += "\nINSERT INTO ZCOLOR VALUES (\(row), 1, 1, \(row), 'c\(row)', '#\(row)0\(row)0\(row)0');"
            sql +=
                "\nINSERT INTO ZPOST VALUES (\(row), 2, 1, \(hide ? "\(row % 2), " : "")\(row), \(700000000 + row).5, 'p\(row)');"
        }
        return sql
    }

    @Test func aOneToOneKeyedOnBothSidesMovesBothEntitiesAtTheRightVersion() throws {
        let root = try Self.project("Posts", Self.posts)
        try Self.store(Self.postsStore(rows: 5, hide: false), at: root.appendingPathComponent("store.sqlite"))
        let result = try Self.importStore(root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Posts: the store was at v3; copied 10 rows into app.sqlite and migrated it to v4\n")
        #expect(try Self.rows(root, "SELECT COUNT(*) FROM color") == [["int64(5)"]])
        #expect(try Self.rows(root, "SELECT COUNT(*) FROM post") == [["int64(5)"]])
        #expect(
            try Self.rows(root, "SELECT color.hex, post.post_id FROM color JOIN post ON post.id = color.post ORDER BY color.id")
                .first == ["string(\"#101010\")", "string(\"p1\")"])
    }

    @Test func theWALStoreOfTheSameFamilyIsAtV4WithRowsOnlyInItsWAL() throws {
        let root = try Self.project("Posts", Self.posts)
        let store = root.appendingPathComponent("store.sqlite")
        try Self.store(Self.postsStore(rows: 4, hide: true), at: store, wal: true)
        let before = try Self.snapshot(root)
        let result = try Self.importStore(root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Posts: the store was at v4; copied 8 rows"))
        #expect(try Self.rows(root, "SELECT hide FROM post ORDER BY id") == [["int64(1)"], ["int64(0)"], ["int64(1)"], ["int64(0)"]])
        var after = try Self.snapshot(root)
        after.removeValue(forKey: "app.sqlite")
        #expect(after == before, "the store and its -wal are untouched; no -shm was made beside them")
    }

    @Test func aKeyThatNamesNoObjectOfTheStoreIsRefusedNamingTheRow() throws {
        // Core Data does not enforce its keys: a Color whose post was deleted with "No Action".
        let root = try Self.project("Posts", Self.posts)
        try Self.store(
            Self.postsStore(rows: 2, hide: false) + "\nUPDATE ZCOLOR SET ZPOST = 99 WHERE Z_PK = 2;",
            at: root.appendingPathComponent("store.sqlite"))
        let result = try Self.importStore(root)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("row Z_PK 2 of table ZCOLOR has ZPOST = 99, which names no 'Post' object of the store"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("app.sqlite").path))
    }

    @Test func aReferenceToASubentitysObjectThatTheFlattenedEntityCannotHoldIsNamed() throws {
        // Note.media -> Media (concrete, with the subentity Book); the Strata reference to Media
        // cannot hold a Book, which gets its own table once flattened.
        let root = try Self.project(
            "Shelf",
            [
                (
                    "Shelf",
                    """
                    <entity name="Book" parentEntity="Media" syncable="YES"><attribute name="isbn" optional="YES" attributeType="String"/></entity>
                    <entity name="Media" syncable="YES">
                        <attribute name="title" optional="YES" attributeType="String"/>
                        <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="media" inverseEntity="Note"/>
                    </entity>
                    <entity name="Note" syncable="YES">
                        <attribute name="text" optional="YES" attributeType="String"/>
                        <relationship name="media" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Media" inverseName="notes" inverseEntity="Media"/>
                    </entity>
                    """
                )
            ])
        let tables = """
            CREATE TABLE ZMEDIA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR, ZISBN VARCHAR );
            CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMEDIA INTEGER, ZTEXT VARCHAR );
            \(Self.systemTables([(1, "Media", 0, 2), (2, "Book", 1, 0), (3, "Note", 0, 2)]))
            INSERT INTO ZMEDIA VALUES (1, 1, 1, 'a film', NULL), (2, 2, 1, 'a book', '978');
            INSERT INTO ZNOTE VALUES (1, 3, 1, 1, 'seen');
            """
        try Self.store(tables, at: root.appendingPathComponent("store.sqlite"))
        let good = try Self.importStore(root)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try Self.rows(root, "SELECT title FROM media") == [["string(\"a film\")"]])
        #expect(try Self.rows(root, "SELECT title, isbn FROM book") == [["string(\"a book\")", "string(\"978\")"]])

        let bad = root.appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: root.appendingPathComponent("Schemas"), to: bad.appendingPathComponent("Schemas"))
        try Self.store(tables + "\nINSERT INTO ZNOTE VALUES (2, 3, 1, 2, 'read');", at: bad.appendingPathComponent("store.sqlite"))
        let refused = try Self.importStore(bad)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "row Z_PK 2 of table ZNOTE has ZMEDIA = 2, a 'Book' object: a reference to 'Media' cannot hold it once the hierarchy of 'Media' is flattened"
            ), "\(refused.stderr)")
    }

    /// The project's mapping without `coreDataModel`, as `strata import coredata` wrote it before.
    static func withoutCoreDataModel(_ root: URL, model: String) throws {
        let path = root.appendingPathComponent("Schemas/\(model)/coredata-mapping.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
        json["versions"] = (json["versions"] as? [[String: Any]])?.map { version in
            version.filter { $0.key != "coreDataModel" }
        }
        try JSONSerialization.data(withJSONObject: json).write(to: path)
        #expect(!String(decoding: try Data(contentsOf: path), as: UTF8.self).contains("coreDataModel"))
    }

    @Test func aMappingWrittenBeforeTheCoreDataModelWasKeptStillRecognisesTheStores() throws {
        let root = try Self.project("Posts", Self.posts)
        try Self.withoutCoreDataModel(root, model: "Posts")
        try Self.store(Self.postsStore(rows: 3, hide: false), at: root.appendingPathComponent("store.sqlite"))
        let result = try Self.importStore(root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Posts: the store was at v3; copied 6 rows"), "\(result.stdout)")

        // Siblings that inherit `created` from an abstract entity: one column of the root's table.
        let tagged = try Self.project("Tagged", Self.tagged)
        try Self.withoutCoreDataModel(tagged, model: "Tagged")
        try Self.store(Self.taggedStore, at: tagged.appendingPathComponent("store.sqlite"))
        let siblings = try Self.importStore(tagged)
        #expect(siblings.status == 0, "\(siblings.stderr)")
        #expect(siblings.stdout.hasPrefix("Tagged: the store was at v1; copied 4 rows"), "\(siblings.stdout)")

        // A column numbered for a name two siblings declare cannot be placed without the model: refused.
        let records = try Self.project("Records", Self.records)
        try Self.withoutCoreDataModel(records, model: "Records")
        try Self.store(Self.recordsStore, at: records.appendingPathComponent("store.sqlite"))
        let numbered = try Self.importStore(records)
        #expect(numbered.status == 1)
        #expect(numbered.stderr.contains("table ZRECORD has ZPENDINGSTATE1, which v1 lacks"), "\(numbered.stderr)")
    }

    @Test func aStoreWhoseColumnsFitAnOlderVersionByNameButNotByTypeIsRefused() throws {
        let root = try Self.project("Posts", Self.posts)
        // ZCOLOR is a key (INTEGER), not v1's String attribute `color` (VARCHAR); no Color table.
        try Self.store(
            """
            CREATE TABLE ZPOST ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOLOR INTEGER, ZDATE TIMESTAMP, ZPOSTID VARCHAR );
            \(Self.systemTables([(1, "Post", 0, 1)]))
            INSERT INTO ZPOST VALUES (1, 1, 1, 7, 700000000, 'p1');
            """, at: root.appendingPathComponent("store.sqlite"))
        let before = try Self.snapshot(root)
        let result = try Self.importStore(root)
        #expect(result.status == 1)
        #expect(result.stderr.contains("is not a store of model 'Posts' at any of its versions"))
        #expect(result.stderr.contains("closest is v1 (Posts): ZPOST.ZCOLOR is INTEGER, v1 has VARCHAR"), "\(result.stderr)")
        #expect(try Self.snapshot(root) == before, "nothing written, the store untouched")
    }

    @Test func aStoreThatFitsNoVersionIsRefusedNamingTheClosestAndWhatDiffers() throws {
        let root = try Self.project("Posts", Self.posts)
        // v3's tables with a column no version has, and a table no version has.
        try Self.store(
            Self.postsStore(rows: 2, hide: false)
                + """

                ALTER TABLE ZPOST ADD COLUMN ZMOOD INTEGER;
                CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
                """, at: root.appendingPathComponent("store.sqlite"))
        let before = try Self.snapshot(root)
        let result = try Self.importStore(root)
        #expect(result.status == 1)
        #expect(result.stderr.contains("closest is v3 (Posts 3): table ZPOST has ZMOOD, which v3 lacks; table ZTAG is not a table of v3"), "\(result.stderr)")
        #expect(try Self.snapshot(root) == before, "nothing written, the store untouched")
    }

    @Test func aStoreThatFitsTwoVersionsAlikeIsRefusedUnlessTheVersionIsNamed() throws {
        // v2 only makes `text` required (with a default): a store of either has the same layout.
        let root = try Self.project(
            "Notes",
            [
                (
                    "Notes",
                    #"<entity name="Note" syncable="YES"><attribute name="text" optional="YES" attributeType="String"/></entity>"#
                ),
                (
                    "Notes 2",
                    #"<entity name="Note" syncable="YES"><attribute name="text" attributeType="String" defaultValueString=""/></entity>"#
                ),
            ])
        try Self.store(
            """
            CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTEXT VARCHAR );
            \(Self.systemTables([(1, "Note", 0, 2)]))
            INSERT INTO ZNOTE VALUES (1, 1, 1, 'one'), (2, 1, 1, NULL);
            """, at: root.appendingPathComponent("store.sqlite"))
        let refused = try Self.importStore(root)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("'store.sqlite' fits versions v1, v2 of model 'Notes' alike"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("app.sqlite").path))
        let arguments = ["import", "coredata-store", "--store", "store.sqlite", "--database", "app.sqlite"]
        let wrong = try CLI.strata(arguments + ["--store-version", "3"], in: root)
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("the model has no version v3"))
        let named = try CLI.strata(arguments + ["--store-version", "1"], in: root)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout.hasPrefix("Notes: the store was at v1; copied 2 rows"))
        #expect(try Self.rows(root, "SELECT text FROM note ORDER BY id") == [["string(\"one\")"], ["string(\"\")"]])
    }

    // MARK: - Inheritance, collisions, join tables

    /// An abstract Record with two subentities that both declare `pendingState` (Core Data
    /// numbers the second column ZPENDINGSTATE1), and a store of framework version < 637 (no
    /// Z_MODELCACHE).
    static let records: [(String, String)] = [
        (
            "Records",
            """
            <entity name="Record" representedClassName="Record" isAbstract="YES" syncable="YES">
                <attribute name="created" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
            </entity>
            <entity name="Message" representedClassName="Message" parentEntity="Record" syncable="YES">
                <attribute name="body" optional="YES" attributeType="String"/>
                <attribute name="pendingState" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
            </entity>
            <entity name="SurveyResponse" representedClassName="SurveyResponse" parentEntity="Record" syncable="YES">
                <attribute name="answer" optional="YES" attributeType="String"/>
                <attribute name="pendingState" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
            </entity>
            """
        )
    ]

    static let recordsStore = """
        CREATE TABLE ZRECORD ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPENDINGSTATE INTEGER, ZPENDINGSTATE1 INTEGER, ZCREATED TIMESTAMP, ZBODY VARCHAR, ZANSWER VARCHAR );
        CREATE INDEX ZRECORD_Z_ENT_INDEX ON ZRECORD (Z_ENT);
        \(systemTables([(1, "Record", 0, 3), (2, "Message", 1, 0), (3, "SurveyResponse", 1, 0)], modelCache: false))
        INSERT INTO ZRECORD VALUES (1, 2, 1, 1, NULL, 100, 'hello', NULL);
        INSERT INTO ZRECORD VALUES (2, 3, 1, NULL, 2, 200, NULL, 'yes');
        INSERT INTO ZRECORD VALUES (3, 2, 1, 3, NULL, 300, 'bye', NULL);
        """

    @Test func subentitiesShareTheRootTableAndACollidingColumnIsNumbered() throws {
        let root = try Self.project("Records", Self.records)
        try Self.store(Self.recordsStore, at: root.appendingPathComponent("store.sqlite"))
        let result = try Self.importStore(root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Records: the store was at v1; copied 3 rows"))
        #expect(
            try Self.rows(root, "SELECT body, pending_state FROM message ORDER BY id") == [
                ["string(\"hello\")", "int64(1)"], ["string(\"bye\")", "int64(3)"],
            ])
        #expect(try Self.rows(root, "SELECT answer, pending_state FROM survey_response") == [["string(\"yes\")", "int64(2)"]])
    }

    @Test func aRowWhoseZENTNamesNoEntityIsRefusedNamingTheRow() throws {
        let root = try Self.project("Records", Self.records)
        try Self.store(
            Self.recordsStore + "\nINSERT INTO ZRECORD VALUES (4, 9, 1, NULL, NULL, 400, 'lost', NULL);",
            at: root.appendingPathComponent("store.sqlite"))
        let result = try Self.importStore(root)
        #expect(result.status == 1)
        #expect(result.stderr.contains("row Z_PK 4 of table ZRECORD has Z_ENT 9, which names no entity of the store"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("app.sqlite").path))
    }

    /// Message (a subentity of the abstract Record) <-> Tag, many-to-many.
    static let tagged: [(String, String)] = [
        (
            "Tagged",
            """
            <entity name="Record" isAbstract="YES" syncable="YES"><attribute name="created" optional="YES" attributeType="Date"/></entity>
            <entity name="Message" parentEntity="Record" syncable="YES">
                <attribute name="body" optional="YES" attributeType="String"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="messages" inverseEntity="Tag"/>
            </entity>
            <entity name="SurveyResponse" parentEntity="Record" syncable="YES"><attribute name="answer" optional="YES" attributeType="String"/></entity>
            <entity name="Tag" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="messages" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Message" inverseName="tags" inverseEntity="Message"/>
            </entity>
            """
        )
    ]

    static let taggedStore = """
        CREATE TABLE ZRECORD ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATED TIMESTAMP, ZBODY VARCHAR, ZANSWER VARCHAR );
        CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
        CREATE TABLE Z_2TAGS ( Z_2MESSAGES INTEGER, Z_4TAGS INTEGER, PRIMARY KEY (Z_2MESSAGES, Z_4TAGS) );
        \(systemTables([(1, "Record", 0, 2), (2, "Message", 1, 0), (3, "SurveyResponse", 1, 0), (4, "Tag", 0, 1)]))
        INSERT INTO ZRECORD VALUES (1, 2, 1, 10, 'hi', NULL), (2, 3, 1, 20, NULL, 'yes');
        INSERT INTO ZTAG VALUES (1, 4, 1, 'work');
        INSERT INTO Z_2TAGS VALUES (1, 1);
        """

    @Test func aJoinTablePairThatNamesAnObjectOfAnotherEntityStopsTheImport() throws {
        // The join table Z_2TAGS as Core Data names it (ends sorted by entity: Message(2) with
        // `messages`, Tag(4) with `tags`).
        let root = try Self.project("Tagged", Self.tagged)
        let tables = Self.taggedStore
        try Self.store(tables, at: root.appendingPathComponent("store.sqlite"))
        let good = try Self.importStore(root)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.hasPrefix("Tagged: the store was at v1; copied 4 rows"), "\(good.stdout)")
        let pairs = try Self.rows(root, "SELECT * FROM message_tags")
        #expect(pairs == [["int64(1)", "int64(1)"]])

        // The survey response (row 2) in the Message column: the pair cannot be copied.
        let bad = try Self.project("Tagged", Self.tagged)
        try Self.store(tables + "\nINSERT INTO Z_2TAGS VALUES (2, 1);", at: bad.appendingPathComponent("store.sqlite"))
        let refused = try Self.importStore(bad)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "'store.sqlite' was not imported: join table Z_2TAGS has 2 pairs, and 1 name objects of the entities v1 maps; the copy was rolled back"
            ), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bad.appendingPathComponent("app.sqlite").path))
    }

    @Test func aToManyWithoutAnInverseIsRecognisedThenRefusedForWhatItIs() throws {
        let root = try Self.project(
            "Folders",
            [
                (
                    "Folders",
                    """
                    <entity name="Folder" syncable="YES">
                        <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item"/>
                    </entity>
                    <entity name="Item" syncable="YES"><attribute name="name" optional="YES" attributeType="String"/></entity>
                    """
                )
            ])
        try Self.store(
            """
            CREATE TABLE ZFOLDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER );
            CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE TABLE Z_1ITEMS ( Z_1FOLDERS INTEGER, Z_2ITEMS INTEGER );
            \(Self.systemTables([(1, "Folder", 0, 0), (2, "Item", 0, 0)]))
            """, at: root.appendingPathComponent("store.sqlite"))
        let result = try Self.importStore(root)
        #expect(result.status == 1)
        #expect(result.stderr.contains("to-many relationship Folder.items has no inverse: its Core Data join table is not read"), "\(result.stderr)")
    }

    /// Self-referencing bookmarks: an ordered to-many with a to-one inverse (Z_FOK_PARENT) and an
    /// ordered many-to-many (join table Z_1FAVORITES with Z_FOK_1FAVORITES).
    static let bookmarks: [(String, String)] = [
        (
            "Bookmarks",
            """
            <entity name="Bookmark" representedClassName="Bookmark" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" ordered="YES" destinationEntity="Bookmark" inverseName="parent" inverseEntity="Bookmark"/>
                <relationship name="favoriteFolders" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Bookmark" inverseName="favorites" inverseEntity="Bookmark"/>
                <relationship name="favorites" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" destinationEntity="Bookmark" inverseName="favoriteFolders" inverseEntity="Bookmark"/>
                <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Bookmark" inverseName="children" inverseEntity="Bookmark"/>
            </entity>
            """
        )
    ]

    @Test func joinTablesAndOrderingColumnsAsCoreDataWritesThem() throws {
        let root = try Self.project("Bookmarks", Self.bookmarks)
        try Self.store(
            """
            CREATE TABLE ZBOOKMARK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPARENT INTEGER, Z_FOK_PARENT INTEGER, ZTITLE VARCHAR );
            CREATE TABLE Z_1FAVORITES ( Z_1FAVORITEFOLDERS INTEGER, Z_1FAVORITES INTEGER, Z_FOK_1FAVORITES INTEGER, PRIMARY KEY (Z_1FAVORITEFOLDERS, Z_1FAVORITES) );
            CREATE INDEX ZBOOKMARK_ZPARENT_INDEX ON ZBOOKMARK (ZPARENT);
            CREATE INDEX Z_1FAVORITES_Z_1FAVORITES_INDEX ON Z_1FAVORITES (Z_1FAVORITES, Z_1FAVORITEFOLDERS);
            \(Self.systemTables([(1, "Bookmark", 0, 4)]))
            INSERT INTO ZBOOKMARK VALUES (1, 1, 1, NULL, NULL, 'root');
            INSERT INTO ZBOOKMARK VALUES (2, 1, 1, 1, 2048, 'b');
            INSERT INTO ZBOOKMARK VALUES (3, 1, 1, 1, 1024, 'a');
            INSERT INTO ZBOOKMARK VALUES (4, 1, 1, NULL, NULL, 'favorites');
            INSERT INTO Z_1FAVORITES VALUES (4, 3, 2048), (4, 2, 1024);
            """, at: root.appendingPathComponent("store.sqlite"))
        let result = try Self.importStore(root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try Self.rows(root, "SELECT id, parent, parent_position FROM bookmark ORDER BY id") == [
                ["int64(1)", "NULL", "int64(0)"], ["int64(2)", "int64(1)", "int64(2048)"],
                ["int64(3)", "int64(1)", "int64(1024)"], ["int64(4)", "NULL", "int64(0)"],
            ])
        let join = try Self.rows(root, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'bookmark_%'")
        let table = try #require(join.first?.first).replacingOccurrences(of: "string(\"", with: "")
            .replacingOccurrences(of: "\")", with: "")
        // Each favourite with its folder and its position in the folder's ordered `favorites`.
        #expect(try Self.rows(root, "SELECT * FROM \(table) ORDER BY 3").count == 2)
        #expect(
            try Self.rows(root, "SELECT * FROM \(table) ORDER BY 3").map { $0.sorted() } == [
                ["int64(1024)", "int64(2)", "int64(4)"], ["int64(2048)", "int64(3)", "int64(4)"],
            ])
    }

    // MARK: - Rows checked one by one; files

    static let items: [(String, String)] = [
        (
            "Items",
            """
            <entity name="Item" representedClassName="Item" syncable="YES">
                <attribute name="id" attributeType="UUID" usesScalarValueType="NO"/>
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
            """
        )
    ]

    @Test func aUUIDThatIsNot16BytesIsRefusedNamingTheRow() throws {
        let root = try Self.project("Items", Self.items)
        try Self.store(
            """
            CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZID BLOB );
            \(Self.systemTables([(1, "Item", 0, 2)]))
            INSERT INTO ZITEM VALUES (1, 1, 1, 'good', X'00112233445566778899AABBCCDDEEFF');
            INSERT INTO ZITEM VALUES (2, 1, 1, 'short', X'0102');
            """, at: root.appendingPathComponent("store.sqlite"))
        let result = try Self.importStore(root)
        #expect(result.status == 1)
        #expect(result.stderr.contains("row Z_PK 2 of table ZITEM has a 2-byte value for the UUID 'Item.id', which takes 16 bytes"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("app.sqlite").path))
    }

    @Test func aDatabasePathThatIsNotADatabaseIsNamed() throws {
        let root = try Self.project("Items", Self.items)
        try Self.store(
            "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZID BLOB );\n"
                + Self.systemTables([(1, "Item", 0, 0)]), at: root.appendingPathComponent("store.sqlite"))
        let text = Data(repeating: 0x41, count: 4096)
        try text.write(to: root.appendingPathComponent("app.sqlite"))
        let result = try Self.importStore(root)
        #expect(result.status == 1)
        #expect(result.stderr.contains("'app.sqlite' already exists and cannot be read as a SQLite database"), "\(result.stderr)")
        #expect(try Data(contentsOf: root.appendingPathComponent("app.sqlite")) == text)
    }

    @Test func aReadOnlyStoreInAReadOnlyFolderIsRead() throws {
        let root = try Self.project("Posts", Self.posts)
        let folder = root.appendingPathComponent("readonly")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("store.sqlite")
        try Self.store(Self.postsStore(rows: 3, hide: true), at: store, wal: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store.path + "-wal")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let result = try Self.importStore(root, store: "readonly/store.sqlite")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Posts: the store was at v4; copied 6 rows"))
        #expect(TestPaths.files(under: folder) == ["store.sqlite", "store.sqlite-wal"])
    }

    /// The files under `root` and their contents.
    static func snapshot(_ root: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for file in TestPaths.files(under: root) where !file.hasPrefix("Schemas/") {
            result[file] = try Data(contentsOf: root.appendingPathComponent(file))
        }
        return result
    }
}
