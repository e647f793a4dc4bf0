import Foundation
import GRDB
import PostgresNIO
import StrataDateSamples
import StrataPostgres
import StrataSQLite
import StrataStorage
import StrataTestSupport
import Testing

/// Every Date reads back `==` through the generated repositories (issue 16), filters on dates agree
/// with Swift's comparisons, and a database written by Strata 0.5 (Dates in seconds since 1970) is
/// converted once when `ShopDatabase` opens it.
@Suite("Generated repositories: Date round trip")
struct DateRoundTripTests {
    @Test("insert then find(id:) returns the inserted record for every sample date, required and optional")
    func findEqualsInserted() throws {
        let shop = try ShopDatabase.inMemory()
        let customers = try shop.customers.insert(
            contentsOf: DateSamples.all.enumerated().map { index, date in
                Customer(name: "c\(index)", email: "c\(index)@x", joined: date)
            })
        let owner = try #require(customers.first?.id)
        let orders = try shop.orders.insert(
            contentsOf: DateSamples.all.map { Order(customer: owner, shippedAt: $0) } + [Order(customer: owner)])
        var unequal = 0
        for customer in customers where try shop.customers.find(id: try #require(customer.id)) != customer {
            unequal += 1
        }
        for order in orders where try shop.orders.find(id: order.id) != order {
            unequal += 1
        }
        #expect(unequal == 0)
        #expect(customers.count >= 10_000)
        // What the issue measured: the 200 dates, each found equal.
        for (customer, date) in zip(customers, DateSamples.issue) {
            #expect(try shop.customers.find(id: try #require(customer.id))?.joined == date)
        }
        // Updated and upserted records read back equal too.
        var changed = try #require(customers.first)
        changed.joined = try #require(DateSamples.issue.last)
        #expect(try shop.customers.update(changed))
        #expect(try shop.customers.find(id: try #require(changed.id)) == changed)
        let upserted = try shop.customers.upsert(Customer(name: "u", email: "u@x", joined: DateSamples.issue[7]))
        #expect(try shop.customers.find(id: try #require(upserted.id)) == upserted)
    }

    @Test("filters comparing dates (<, ==, >=) select exactly what Swift's comparisons select")
    func filters() throws {
        let shop = try ShopDatabase.inMemory()
        let dates = Array(DateSamples.all.prefix(3_000))
        try shop.customers.insert(
            contentsOf: dates.enumerated().map { Customer(name: "c\($0)", email: "c\($0)@x", joined: $1) })
        for pivot in DateSamples.issue.prefix(10) + DateSamples.edges.prefix(10) {
            #expect(try shop.customers.count(where: { $0.joined < pivot }) == dates.filter { $0 < pivot }.count)
            #expect(try shop.customers.count(where: { $0.joined == pivot }) == dates.filter { $0 == pivot }.count)
            #expect(try shop.customers.count(where: { $0.joined >= pivot }) == dates.filter { $0 >= pivot }.count)
        }
        // A date one ulp away is another date, in SQL as in Swift.
        let exact = dates[5]
        let neighbour = Date(timeIntervalSinceReferenceDate: exact.timeIntervalSinceReferenceDate.nextUp)
        #expect(!dates.contains(neighbour))
        #expect(try shop.customers.count(where: { $0.joined == exact }) == 1)
        #expect(try shop.customers.count(where: { $0.joined == neighbour }) == 0)
        let sorted = try shop.customers.fetchAll(orderBy: { [$0.joined.ascending, $0.name.ascending] })
        #expect(sorted.map(\.joined) == dates.sorted())
    }

    /// A Shop v1 database as Strata 0.5 wrote it: the v1 SQL, its ledger row, Dates in seconds since 1970.
    static func legacyDatabase(_ dates: [Date]) throws -> (path: String, folder: URL) {
        let folder = TestScratch.path("strata-dates")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("shop.sqlite").path
        let migration = try #require(ShopMigrations.all.first)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: migration.sql)
            try db.execute(
                sql: """
                    CREATE TABLE "strata_migrations" ("model" TEXT NOT NULL, "version" INTEGER NOT NULL,
                        "checksum" TEXT NOT NULL, "applied_at" REAL NOT NULL, PRIMARY KEY ("model", "version"));
                    INSERT INTO "strata_migrations" VALUES ('Shop', 1, ?, 1700000000.5);
                    """, arguments: [migration.legacyChecksum ?? migration.checksum])
            for (index, date) in dates.enumerated() {
                try db.execute(
                    sql: #"INSERT INTO "customer" ("name", "email", "joined") VALUES (?, ?, ?)"#,
                    arguments: ["c\(index)", "c\(index)@x", date.timeIntervalSince1970])
                try db.execute(
                    sql: #"INSERT INTO "order" ("id", "customer", "shipped_at") VALUES (?, last_insert_rowid(), ?)"#,
                    arguments: [Data(SQLiteStorage.bytes(of: UUID())), index % 2 == 0 ? date.timeIntervalSince1970 : nil])
            }
        }
        return (path, folder)
    }

    @Test("a database Strata 0.5 wrote is converted once when it opens: the dates old Strata read, the ledger accepted")
    func legacyDatabaseOpens() throws {
        let dates = Array(DateSamples.all.prefix(2_000))
        let (path, folder) = try Self.legacyDatabase(dates)
        defer { try? FileManager.default.removeItem(at: folder) }
        // What Strata 0.5 read back: the Date of its seconds since 1970.
        let old = dates.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970) }
        #expect(try ShopDatabase.migrator.pendingDateConversion(in: DatabaseQueue(path: path))?.columns.count == 2)
        for _ in 0..<2 {  // the second opening converts nothing again
            let shop = try ShopDatabase(path: path)
            let customers = try shop.customers.fetchAll(orderBy: { [$0.id.ascending] })
            #expect(customers.count == old.count)
            #expect(zip(customers.map(\.joined), old).filter { $0 != $1 }.isEmpty)
            let shipped = try shop.orders.fetchAll(orderBy: { [$0.customer.ascending] }).map(\.shippedAt)
            let expectedShipped = old.enumerated().map { $0.offset % 2 == 0 ? $0.element : nil }
            #expect(zip(shipped, expectedShipped).filter { $0 != $1 }.isEmpty)
            // Within the old storage's precision of the dates first written.
            let imprecise = zip(customers.map(\.joined), dates).filter { read, written in
                abs(read.timeIntervalSinceReferenceDate - written.timeIntervalSinceReferenceDate)
                    > written.timeIntervalSince1970.ulp
            }
            #expect(imprecise.isEmpty)
            #expect(try ShopDatabase.migrator.pendingDateConversion(in: shop.writer) == nil)
            #expect(try ShopDatabase.migrator.currentVersion(in: shop.writer) == 1)
            let marker = try shop.writer.read { db in try StrataStorageFormat.marker(model: "Shop", db) }
            #expect(marker == StrataStorageFormat.Marker(dateFormat: .secondsSinceReferenceDate, sinceVersion: 1))
        }
    }

    @Test("a conversion that fails midway leaves the old database untouched, and succeeds once the cause is gone")
    func failedConversionLeavesTheDatabaseUntouched() throws {
        let (path, folder) = try Self.legacyDatabase(Array(DateSamples.issue))
        defer { try? FileManager.default.removeItem(at: folder) }
        let snapshot = "SELECT group_concat(quote(\"joined\")) FROM \"customer\""
        let queue = try DatabaseQueue(path: path)
        // The second table's update fails after the first one's ran.
        try queue.write { db in
            try db.execute(
                sql: #"CREATE TRIGGER "refuse" BEFORE UPDATE ON "order" BEGIN SELECT RAISE(ABORT, 'refused'); END"#)
        }
        let before = try queue.read { db in try String.fetchOne(db, sql: snapshot) }
        try queue.close()
        #expect(throws: DatabaseError.self) { try ShopDatabase(path: path) }
        let after = try DatabaseQueue(path: path)
        #expect(try after.read { db in try String.fetchOne(db, sql: snapshot) } == before)
        #expect(try after.read { db in try db.tableExists(StrataStorageFormat.tableName) } == false)
        #expect(try ShopDatabase.migrator.pendingDateConversion(in: after) != nil)
        try after.write { db in try db.execute(sql: #"DROP TRIGGER "refuse""#) }
        try after.close()
        let shop = try ShopDatabase(path: path)
        let joined = try shop.customers.fetchAll(orderBy: { [$0.id.ascending] }).map(\.joined)
        let old = DateSamples.issue.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970) }
        #expect(joined.count == old.count && zip(joined, old).allSatisfy { $0 == $1 })
    }

    @Test("a new database records its Date format with its first version, and is never converted")
    func newDatabase() throws {
        let shop = try ShopDatabase.inMemory()
        let marker = try shop.writer.read { db in try StrataStorageFormat.marker(model: "Shop", db) }
        #expect(marker == StrataStorageFormat.Marker(dateFormat: .secondsSinceReferenceDate, sinceVersion: 0))
        #expect(try ShopDatabase.migrator.pendingDateConversion(in: shop.writer) == nil)
        #expect(ShopMigrations.all.first?.dateColumns == [
            SQLiteDateColumn(table: "customer", column: "joined"), SQLiteDateColumn(table: "order", column: "shipped_at"),
        ])
    }
}

/// The same samples through the generated PostgreSQL repositories: each Date reads back as
/// `PostgresStorage.rounded(_:)` of it, and the records insert returns are what a fetch reads.
@Suite("Generated repositories: Date round trip on PostgreSQL")
struct PostgresDateRoundTripTests {
    @Test("insert returns and fetch reads the Date rounded to the microsecond, for every sample within PostgreSQL's range")
    func roundedToTheMicrosecond() async throws {
        let server = try await TestPostgresServer.forTest()
        // ±300 years of 2001, well within TIMESTAMPTZ's range (4713 BC to 294276 AD).
        let dates = DateSamples.all.filter { abs($0.timeIntervalSinceReferenceDate) < 1e10 }
        #expect(dates.count >= 10_000)
        try await server.withDatabase { session in
            try await ShopPostgresDatabase.migrator.migrate(session.connection)
            let shop = ShopPostgresAccess(session.connection)
            var inserted: [Customer] = []
            for start in stride(from: 0, to: dates.count, by: 1_000) {
                let batch = dates[start..<min(start + 1_000, dates.count)].enumerated().map { offset, date in
                    Customer(name: "c\(start + offset)", email: "c\(start + offset)@x", joined: date)
                }
                inserted += try await shop.customers.insert(contentsOf: batch)
            }
            #expect(zip(inserted.map(\.joined), dates).filter { $0 != PostgresStorage.rounded($1) }.isEmpty)
            let fetched = try await shop.customers.fetchAll(orderBy: { [$0.id.ascending] })
            #expect(fetched.count == inserted.count)
            #expect(zip(fetched, inserted).filter { $0 != $1 }.isEmpty)
            for customer in inserted.prefix(200) {
                #expect(try await shop.customers.find(id: try #require(customer.id)) == customer)
            }
            // A filter with a Date read back selects exactly it.
            let pivot = inserted[7].joined
            #expect(try await shop.customers.count(where: { $0.joined == pivot }) == inserted.filter { $0.joined == pivot }.count)
            #expect(try await shop.customers.count(where: { $0.joined < pivot }) == inserted.filter { $0.joined < pivot }.count)
        }
    }
}
