import Testing

extension TestPostgresServer {
    /// The shared server for a test. When it cannot start, the test fails under `CI=true` (a
    /// database test must never pass by not running there) and is cancelled, visibly, with the
    /// reason elsewhere.
    public static func forTest(sourceLocation: SourceLocation = #_sourceLocation) async throws -> TestPostgresServer {
        do {
            return try await shared()
        } catch {
            if isCI {
                Issue.record(
                    "PostgreSQL could not start, and CI=true requires it: \(error)", sourceLocation: sourceLocation)
                throw error
            }
            try Test.cancel(
                "skipped: PostgreSQL could not start (\(error)); CI=true makes this a failure",
                sourceLocation: sourceLocation)
        }
    }
}
