import GRDB
import StrataRuntime

/// Observation of queries as asynchronous sequences, on GRDB's `ValueObservation`: a new value
/// each time a transaction commits a change to what the query read.
public enum StrataObservation {
    /// The values of `fetch`, now and after every relevant change, skipping repeated equal values.
    public static func values<Value: Sendable & Equatable>(
        in reader: any DatabaseReader,
        fetch: @escaping @Sendable (Database) throws -> Value
    ) -> AsyncValueObservation<Value> {
        ValueObservation.tracking(fetch).removeDuplicates().values(in: reader)
    }
}
