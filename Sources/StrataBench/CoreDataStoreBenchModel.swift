import Foundation
import GRDB
import StrataSQLite

/// The Core Data model of the store import benchmark, a store of it laid out the way Core Data
/// writes one, and the same copy written by hand in SQL.
///
/// Two entities: `Author` (a name, an optional birth date, a rating) and `Book` (a UUID, a title,
/// pages, a flag, an optional date), a to-one `Book.author` (inverse `Author.books`) and a
/// many-to-many `Author.favorites` / `Book.fans`, whose join table Core Data names
/// `Z_1FAVORITES ( Z_1FANS, Z_2FAVORITES )`.
enum CoreDataStoreBenchModel {
    /// The Strata model's name.
    static let name = "CoreDataBench"

    /// `contents` of `CoreDataBench.xcdatamodel`, as Xcode writes it.
    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23H124" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Author" representedClassName="Author" syncable="YES" codeGenerationType="class">
                <attribute name="born" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="name" attributeType="String"/>
                <attribute name="rating" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
                <relationship name="favorites" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="fans" inverseEntity="Book"/>
            </entity>
            <entity name="Book" representedClassName="Book" syncable="YES" codeGenerationType="class">
                <attribute name="identifier" attributeType="UUID" usesScalarValueType="NO"/>
                <attribute name="isRead" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                <attribute name="pages" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="published" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="title" attributeType="String"/>
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
                <relationship name="fans" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Author" inverseName="favorites" inverseEntity="Author"/>
            </entity>
        </model>
        """

    /// How `rows` rows in all are shared: a tenth authors, half books, the rest pairs.
    static func counts(rows: Int) -> (authors: Int, books: Int, pairs: Int) {
        let authors = max(1, rows / 10)
        let books = max(1, rows / 2)
        return (authors, books, max(0, min(rows - authors - books, books)))
    }

    /// The store's tables, as Core Data creates them.
    static let storeSchema = """
        CREATE TABLE ZAUTHOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBORN TIMESTAMP, ZRATING FLOAT, ZNAME VARCHAR );
        CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISREAD INTEGER, ZPAGES INTEGER, ZAUTHOR INTEGER, ZPUBLISHED TIMESTAMP, ZTITLE VARCHAR, ZIDENTIFIER BLOB );
        CREATE TABLE Z_1FAVORITES ( Z_1FANS INTEGER, Z_2FAVORITES INTEGER, PRIMARY KEY (Z_1FANS, Z_2FAVORITES) );
        CREATE INDEX Z_1FAVORITES_Z_2FAVORITES_INDEX ON Z_1FAVORITES (Z_2FAVORITES, Z_1FANS);
        CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR);
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
        INSERT INTO Z_METADATA VALUES (1, '5B1E2C3D-4F50-4A61-B728-39405A6B7C8D', NULL);
        """

    /// Writes a store of `rows` rows in all at `path` (deterministic values), in one transaction.
    static func writeStore(rows: Int, at path: String) throws {
        let (authors, books, pairs) = counts(rows: rows)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: storeSchema)
            try db.execute(
                sql: "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Author', 0, ?), (2, 'Book', 0, ?)",
                arguments: [authors, books])
            let author = try db.makeStatement(sql: "INSERT INTO ZAUTHOR VALUES (?, 1, 1, ?, ?, ?)")
            for index in 1...authors {
                let born: Double? = index % 5 == 0 ? nil : -1_000_000_000 + Double(index) * 1_000.5
                try author.execute(arguments: [index, born, Double(index % 50) / 10, "author \(index)"])
            }
            let book = try db.makeStatement(sql: "INSERT INTO ZBOOK VALUES (?, 2, 1, ?, ?, ?, ?, ?, ?)")
            for index in 1...books {
                var bytes = [UInt8](repeating: 0, count: 16)
                withUnsafeBytes(of: UInt64(index).bigEndian) { bytes.replaceSubrange(8..<16, with: $0) }
                bytes[6] = 0x40
                bytes[8] = (bytes[8] & 0x3F) | 0x80
                let writer: Int? = index % 50 == 0 ? nil : (index * 7) % authors + 1
                let published: Double? = index % 7 == 0 ? nil : 600_000_000 + Double(index) * 60.25
                try book.execute(arguments: [
                    index, index % 3 == 0, 40 + index % 900, writer, published, "book \(index)", Data(bytes),
                ])
            }
            let pair = try db.makeStatement(sql: "INSERT INTO Z_1FAVORITES VALUES (?, ?)")
            for index in 0..<pairs {
                // Fewer pairs than books: each pair has its own book.
                try pair.execute(arguments: [index * 31 % authors + 1, index + 1])
            }
        }
        try queue.close()
    }

    /// The copy by hand: every row of the store attached as `store`, into the tables the model's
    /// SQLite schema creates, one `INSERT … SELECT` per table (run in one transaction).
    static let copyByHand = """
        INSERT INTO "author" ("id", "born", "name", "rating")
            SELECT Z_PK, ZBORN, ZNAME, ZRATING FROM store.ZAUTHOR;
        INSERT INTO "book" ("id", "identifier", "is_read", "pages", "published", "title", "author")
            SELECT Z_PK, ZIDENTIFIER, ZISREAD, ZPAGES, ZPUBLISHED, ZTITLE, ZAUTHOR FROM store.ZBOOK;
        INSERT INTO "author_favorites" ("author", "book")
            SELECT Z_1FANS, Z_2FAVORITES FROM store.Z_1FAVORITES;
        """
}
