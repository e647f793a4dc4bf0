import Foundation
import GRDB
import StrataPostgres
import StrataSQLite
import StrataTestSupport
import Testing

/// Value types of the Ledger fixture model (`types:`) on both databases: `AccountNumber` (stored
/// as `String`) as a primary key and as a reference, `Cents` (stored as `Int64`) in fields with a
/// default, filters, sorts, joins and eager loading; `IBAN`, declared here (`external: true`);
/// all stored as their raw values.
/// An IBAN, the app's own type: the schema names it with `external: true`, and the generated
/// `LedgerRecords.swift` makes it a column value. Refuses text that is not 15 to 34 characters.
public struct IBAN: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String

    public init?(rawValue: String) {
        guard (15...34).contains(rawValue.count) else { return nil }
        self.rawValue = rawValue
    }
}

@Suite("Generated repositories: value types (Ledger)")
struct LedgerValueTypeTests {
    private static let first = AccountNumber(rawValue: "DE-0001")
    private static let second = AccountNumber(rawValue: "DE-0002")

    private static let transfers: [Transfer] = [
        Transfer(account: first, amount: Cents(rawValue: 1_500)),
        Transfer(account: first, amount: Cents(rawValue: -250), fee: Cents(rawValue: 5)),
        Transfer(account: second, amount: Cents(rawValue: 99)),
    ]

    @Test("SQLite: a value type as key and reference, in filters, sorts, joins and eager loading")
    func sqlite() throws {
        let db = try LedgerDatabase.inMemory()
        let account = try db.bankAccounts.insert(
            BankAccount(number: Self.first, owner: "Ada", iban: IBAN(rawValue: "DE89370400440532013000")))
        #expect(account.overdraft == Cents(rawValue: 0), "the schema default")
        try db.bankAccounts.insert(BankAccount(number: Self.second, owner: "Bob", overdraft: Cents(rawValue: 10_000)))
        try db.transfers.insert(contentsOf: Self.transfers)
        #expect(try db.bankAccounts.find(number: Self.first) == account)
        let large = try db.transfers.fetchAll(where: { $0.amount > Cents(rawValue: 0) }, orderBy: { [$0.amount.descending] })
        #expect(large.map(\.amount.rawValue) == [1_500, 99])
        #expect(try db.transfers.count(where: { $0.account == Self.first && $0.fee != nil }) == 1)
        let joined = try db.transfers.fetchAll(joining: BankAccount.self, on: \.account, orderBy: { t, _ in [t.id.ascending] })
        #expect(joined.map(\.partner.owner) == ["Ada", "Ada", "Bob"])
        let families = try db.bankAccounts.fetchAll(
            orderBy: { [$0.number.ascending] }, including: .all(Transfer.self, via: \.account))
        let counts: [Int] = families.map { $0.children.count }
        #expect(counts == [2, 1])
        let stored = try db.writer.read { try Row.fetchAll($0, sql: "SELECT account, amount FROM transfer ORDER BY id") }
        #expect(stored.map { $0[0] as String } == ["DE-0001", "DE-0001", "DE-0002"], "stored as the raw value")
        #expect(stored.map { $0[1] as Int64 } == [1_500, -250, 99])
        #expect(try db.bankAccounts.transfers(of: account).count == 2, "the hasMany accessor")
        #expect(try db.bankAccounts.count(where: { $0.iban == IBAN(rawValue: "DE89370400440532013000") }) == 1)
        // A stored value the app's type refuses is an error, not a crash.
        try db.writer.write { try $0.execute(sql: "UPDATE bank_account SET iban = 'short' WHERE number = 'DE-0001'") }
        #expect(throws: StrataDecodingError.malformed(column: "iban", type: "IBAN")) { try db.bankAccounts.find(number: Self.first) }
    }

    @Test("PostgreSQL: a value type as key and reference, in filters, sorts, joins and eager loading")
    func postgres() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await LedgerPostgresDatabase.migrator.migrate(session.connection)
            let db = LedgerPostgresAccess(session.connection)
            let account = try await db.bankAccounts.insert(BankAccount(number: Self.first, owner: "Ada"))
            #expect(account.overdraft == Cents(rawValue: 0))
            try await db.bankAccounts.insert(BankAccount(number: Self.second, owner: "Bob", overdraft: Cents(rawValue: 10_000)))
            try await db.transfers.insert(contentsOf: Self.transfers)
            #expect(try await db.bankAccounts.find(number: Self.first) == account)
            let large = try await db.transfers.fetchAll(
                where: { $0.amount > Cents(rawValue: 0) }, orderBy: { [$0.amount.descending] })
            #expect(large.map(\.amount.rawValue) == [1_500, 99])
            let joined = try await db.transfers.fetchAll(joining: BankAccount.self, on: \.account, orderBy: { t, _ in [t.id.ascending] })
            #expect(joined.map(\.partner.owner) == ["Ada", "Ada", "Bob"])
            let families = try await db.bankAccounts.fetchAll(
                orderBy: { [$0.number.ascending] }, including: .all(Transfer.self, via: \.account))
            let counts: [Int] = families.map { $0.children.count }
            #expect(counts == [2, 1])
            #expect(try await db.transfers.count(where: { $0.fee == Cents(rawValue: 5) }) == 1)
        }
    }
}
