import Foundation
import Testing

/// The reference Swift of the Showcase fixture (Tests/Fixtures/Golden/Showcase/Swift, linked here as
/// `Generated`) compiles, and behaves: keywords as names, every default kind, optionals, composite keys.
@Suite struct ShowcaseModelTests {
    @Test func aLongIncompatibilityReadsBackAsTheOneLineTheLedgerRecords() {
        // Wrapped over lines with continuations in the generated list (line length), one line in the value.
        let expected = "renames Customer.name to displayName (column name -> display_name); fills the new "
            + "Order.itemCount by a transform, which rows code of v1 inserts do not get; removes OrderLine.ratio "
            + "(column ratio); runs its own SQL (migration.after), which Strata cannot classify"
        #expect(ShowcaseMigrations.all.map(\.incompatibility) == [nil, expected])
        #expect(ShowcasePostgresMigrations.all.map(\.incompatibility) == [nil, expected])
        #expect(ShowcaseMigrations.all.map(\.compatibleFrom) == [nil, nil])
    }

    @Test func keywordNamedFieldsWork() {
        let value = Keywords(default: 7, class: "c")
        #expect(value.default == 7)
        #expect(value.class == "c")
        #expect(value.protocol == nil)
        #expect(value.self_check == true)
        #expect(value.Upper == -32_768)
        #expect(value.id == 7)
    }

    @Test func defaultsOfEveryKind() throws {
        let customer = Customer(displayName: "Ada", email: "ada@example.com", joined: Date(timeIntervalSince1970: 0))
        #expect(customer.id == nil, "autoincremented keys are nil until inserted")
        #expect(customer.isVIP == false)
        #expect(customer.since == ISO8601DateFormatter().date(from: "2024-01-31T12:00:00Z"))
        #expect(customer.token == UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301"))
        let order = Order(customer: 1)
        #expect(order.status == .placed)
        #expect(order.total == Decimal(string: "0.00"))
        #expect(order.note == #"He said "hi" \ left; $(rm -rf) \(x)"#)
        let line = OrderLine(order: order.id, position: 1)
        #expect(line.quantity == 1)
        #expect(line.weight == 2.5)
        #expect(line.level == .high)
        #expect(line.payload == nil)
    }

    @Test func casesPrintByTheirNamesAsTheOldDescriptionDid() {
        // Before 0.6.0 the enums declared `description` returning the case name: Swift's own
        // printing of a case gives the same text, for String and integer raw values alike.
        #expect(Status.allCases.map { String(describing: $0) } == ["draft", "placed", "shipped", "cancelled"])
        #expect(Level.allCases.map { "\($0)" } == ["low", "high", "critical"])
    }

    @Test func enumsWithExplicitAndStringRawValues() throws {
        #expect(Level.critical.rawValue == 1_000_000)
        #expect(Status(value: "archived") == .draft)
        #expect(Status.allCases.map(\.rawValue) == ["draft", "placed", "shipped", "cancelled"])
        let decoded = try JSONDecoder().decode([Status].self, from: Data(#"["shipped","nonsense"]"#.utf8))
        #expect(decoded == [.shipped, .draft])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Level.self, from: Data("3".utf8))
        }
    }
}
