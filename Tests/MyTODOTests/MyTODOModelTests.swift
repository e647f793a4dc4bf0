import Foundation
import MyTODO
import Testing

/// The generated MyTODO model types, used the way the TODO app uses them.
@Suite struct MyTODOModelTests {
    @Test func itemTakesTheSchemaDefaults() {
        let item = TODOItem(title: "Buy milk")
        #expect(item.title == "Buy milk")
        #expect(item.detail == "")
        #expect(item.isDone == false)
        #expect(item.priority == .middle)
        #expect(TODOItem().id != TODOItem().id, "each item gets a new UUID")
    }

    @Test func priorityCasesAreInDeclarationOrderWithRawValues() {
        #expect(Priority.allCases == [.lowest, .low, .middle, .high, .highest])
        #expect(Priority.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(String(describing: Priority.high) == "high")
        #expect("\(Priority.lowest)" == "lowest")
    }

    @Test func unknownRawValuesFallBackToMiddle() {
        #expect(Priority(value: 3) == .high)
        #expect(Priority(value: 9) == .middle)
        #expect(Priority(value: -1) == .middle)
        #expect(Priority(rawValue: 9) == nil)
    }

    @Test func itemRoundTripsThroughJSON() throws {
        let item = TODOItem(title: "Write \"tests\"", detail: "ünïcode ✓", isDone: true, priority: .highest)
        let data = try JSONEncoder().encode(item)
        #expect(try JSONDecoder().decode(TODOItem.self, from: data) == item)
    }

    @Test func jsonWithAnUnknownPriorityDecodesAsMiddle() throws {
        let id = UUID()
        let json = #"{"id":"\#(id.uuidString)","title":"t","detail":"d","isDone":false,"priority":42}"#
        let item = try JSONDecoder().decode(TODOItem.self, from: Data(json.utf8))
        #expect(item.priority == .middle)
        #expect(item.id == id)
    }

    @Test func itemsAreHashableAndIdentifiable() {
        let item = TODOItem(title: "a")
        var copy = item
        #expect(Set([item, copy]).count == 1)
        copy.isDone = true
        #expect(copy != item)
        #expect(copy.id == item.id)
    }
}
