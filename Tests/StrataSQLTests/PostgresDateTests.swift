import Foundation
import StrataCore
import StrataDateSamples
import StrataStorage
import StrataTestSupport
import Testing

/// On a real PostgreSQL server, a TIMESTAMPTZ keeps exactly the microseconds ``PostgresStorage``
/// computes for a Date (the value the runtime binds), and Date defaults are written to the microsecond.
@Suite struct PostgresDateTests {
    @Test func timestamptzKeepsTheMicrosecondsPostgresStorageComputes() async throws {
        let server = try await TestPostgresServer.forTest()
        // PostgreSQL's range starts at 4713 BC; the samples span ±300 years around 2001.
        let dates = DateSamples.all.filter { abs($0.timeIntervalSinceReferenceDate) < 1e10 }
        #expect(dates.count >= 10_000)
        try await server.withDatabase { session in
            try await session.execute(#"CREATE TABLE "t" ("i" INTEGER PRIMARY KEY, "d" TIMESTAMPTZ NOT NULL)"#)
            for start in stride(from: 0, to: dates.count, by: 2_000) {
                let values = dates[start..<min(start + 2_000, dates.count)].enumerated().map { offset, date in
                    "(\(start + offset), '\(PostgresTimestamp.text(of: date))')"
                }
                try await session.execute(#"INSERT INTO "t" VALUES "# + values.joined(separator: ", "))
            }
            let rows = try await session.textRows(
                sql: #"SELECT (extract(epoch FROM "d" - TIMESTAMPTZ '2000-01-01 00:00:00+00') * 1000000)::bigint::text FROM "t" ORDER BY "i""#)
            let stored = rows.map { $0.first.flatMap { $0 }.flatMap { Int64($0) } }
            #expect(stored.count == dates.count)
            let unequal = zip(dates, stored).filter { PostgresStorage.microseconds(of: $0) != $1 }
            #expect(unequal.isEmpty, "\(unequal.count) differ, e.g. \(unequal.prefix(3))")
        }
    }

    @Test func dateDefaultsAreWrittenToTheMicrosecond() {
        let date = Date(timeIntervalSinceReferenceDate: 728_395_200.123_456_7)
        #expect(PostgresTimestamp.text(of: date) == "2024-01-31 12:00:00.123457+00")
        #expect(PostgresTimestamp.text(of: Date(timeIntervalSinceReferenceDate: 728_395_200.25)) == "2024-01-31 12:00:00.25+00")
        #expect(PostgresTimestamp.text(of: Date(timeIntervalSinceReferenceDate: -978_307_200.5)) == "1969-12-31 23:59:59.5+00")
    }
}
