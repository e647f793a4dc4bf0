import Foundation
import StrataChecksum
import StrataCore
import StrataTestSupport
import Testing

/// The validated model read from the TODO app's schemas, and the parser's building blocks.
@Suite struct SchemaModelTests {
    func myTODO() throws -> SchemaHistory {
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: "MyTODO", in: TestPaths.schemas.path)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return try #require(history)
    }

    @Test func myTODOHistoryMatchesTheTutorial() throws {
        let history = try myTODO()
        #expect(history.versions.map(\.version) == [1, 2, 3])
        #expect(history.versions.map { $0.entity(named: "TODOItem")?.fields.map(\.name) ?? [] } == [
            ["id", "title", "detail"],
            ["id", "title", "detail", "isDone"],
            ["id", "title", "detail", "isDone", "priority"],
        ])
        let v3 = try #require(history.latest)
        let item = try #require(v3.entity(named: "TODOItem"))
        #expect(item.table == "todo_item")
        #expect(item.primaryKey == ["id"])
        #expect(item.field(named: "isDone")?.column == "is_done")
        #expect(item.field(named: "isDone")?.defaultValue == .bool(false))
        #expect(item.field(named: "priority")?.type == .enumeration("Priority"))
        #expect(item.field(named: "priority")?.defaultValue == .enumCase("middle"))
        #expect(item.indexes.map(\.name) == ["todo_item_priority_title_idx"])
        let priority = try #require(v3.enumDecl(named: "Priority"))
        #expect(priority.rawType == .int16)
        #expect(priority.cases.map(\.rawValue) == (0...4).map { .integer(Int64($0)) })
        #expect(priority.unknownCase == "middle")
        #expect(v3.storageType(of: try #require(item.field(named: "priority"))) == .int16)
    }

    @Test func everyKeyOfTheShowcaseIsRead() throws {
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: "Showcase", in: TestPaths.models.path)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let v2 = try #require(history?.latest)
        let customer = try #require(v2.entity(named: "Customer"))
        #expect(customer.field(named: "displayName")?.renamedFrom == "name")
        #expect(customer.field(named: "isVIP")?.column == "vip")
        #expect(customer.autoincrementField?.name == "id")
        #expect(customer.field(named: "email")?.isUnique == true)
        let order = try #require(v2.entity(named: "Order"))
        #expect(order.table == "order")
        #expect(order.field(named: "customer")?.onDelete == .cascade)
        #expect(v2.storageType(of: try #require(order.field(named: "customer"))) == .int64)
        #expect(order.field(named: "itemCount")?.transform?.sqlite?.hasPrefix("(SELECT count(*)") == true)
        #expect(order.indexes.map(\.name) == ["order_customer_status_idx", "order_item_count"])
        #expect(order.hasMany.map(\.name) == ["lines"])
        let line = try #require(v2.entity(named: "OrderLine"))
        #expect(line.primaryKey == ["order", "position"])
        #expect(v2.migration.allowDataLoss.map(\.spelled) == ["OrderLine.ratio"])
        #expect(v2.migration.after?.postgres?.contains("false") == true)
        #expect(v2.enumDecl(named: "Level")?.cases.map(\.rawValue) == [.integer(10), .integer(20), .integer(1_000_000)])
    }

    @Test(arguments: [
        ("TODOItem", "todo_item"), ("isDone", "is_done"), ("URLValue2", "url_value2"), ("id", "id"),
        ("already_snake", "already_snake"), ("HTTPServerURL", "http_server_url"), ("item2Count", "item2_count"),
    ])
    func snakeCase(name: String, expected: String) {
        #expect(Naming.snakeCased(name) == expected)
    }

    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(String(repeating: "a", count: 1000))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        // 56 bytes: the padding needs a block of its own.
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func swiftNamesEscapeKeywordsAndLiterals() {
        #expect(SwiftNames.identifier("default") == "`default`")
        #expect(SwiftNames.identifier("title") == "title")
        #expect(SwiftNames.stringLiteral("a\"b\\c\n\\(x)") == #""a\"b\\c\n\\(x)""#)
        #expect(SwiftNames.integerLiteral(1_000_000) == "1_000_000")
        #expect(SwiftNames.integerLiteral(-32768) == "-32_768")
        #expect(SwiftNames.integerLiteral(1000) == "1000")
    }

    @Test func unifiedDiffShowsChangedLinesWithContext() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 5\n", with: "line five\n")
        let diff = UnifiedDiff.render(old: old, new: new, oldPath: "a", newPath: "b")
        #expect(diff == "--- a\n+++ b\n@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n line 8\n")
        #expect(UnifiedDiff.render(old: old, new: old, oldPath: "a", newPath: "b").isEmpty)
    }
}
