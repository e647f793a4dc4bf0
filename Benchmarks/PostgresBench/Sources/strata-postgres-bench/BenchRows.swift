import Foundation

/// The benchmark's data: `count` deterministic rows of ten mixed-type fields (the same rows as
/// the SQLite repository benchmark).
enum BenchRows {
    static func make(count: Int) -> [Sample] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        let categories = Category.allCases
        return (0..<count).map { index in
            let random = next()
            var uuid = UUID().uuid
            withUnsafeMutableBytes(of: &uuid) { bytes in
                bytes.storeBytes(of: random.bigEndian, toByteOffset: 0, as: UInt64.self)
                bytes.storeBytes(of: UInt64(index).bigEndian, toByteOffset: 8, as: UInt64.self)
            }
            return Sample(
                id: UUID(uuid: uuid),
                name: "sample \(random % 100_000)",
                note: index % 3 == 0 ? nil : "note for row \(index)",
                quantity: Int(random % 1_000),
                score: Double(random % 1_000_000) / 1_000,
                isActive: random % 2 == 0,
                category: categories[Int(random % UInt64(categories.count))],
                createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)),
                payload: Data((0..<16).map { UInt8(truncatingIfNeeded: random >> UInt64($0)) }),
                rank: Int32(truncatingIfNeeded: index)
            )
        }
    }
}
