import GRDB
import Observation
import StrataRuntime

/// The current result of a query, kept up to date: an `@Observable` object for SwiftUI views
/// and view models, on GRDB's `ValueObservation`.
///
/// It holds ``value`` (the result as of the last committed change that affected it) and
/// ``error`` (the error of the last refresh, nil once a refresh succeeds). Any fetch can be live:
/// a repository's `fetchAll`, `find(id:)`, `count`, a named query, or several of them read
/// together (one consistent read). Observation stops when the object is released.
///
/// ```swift
/// @State private var items = db.live { try $0.filteredItems(isDone: false) }
/// var body: some View { List(items.value, id: \.id) { Text($0.title) } }
/// ```
///
/// It lives on the main actor: the first value is read when it is created (so a view never
/// shows a placeholder for a database that answers), later values arrive on the main actor, in
/// order, after each commit that changes what the fetch read; equal results are not republished.
///
/// The Observation framework needs macOS 14, iOS 17, tvOS 17 or watchOS 10 (and is available
/// wherever Swift runs on Linux).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class StrataLiveQuery<Value: Sendable & Equatable> {
    /// The result of the fetch as of the last refresh (the initial value until one succeeds).
    public private(set) var value: Value
    /// The error of the last refresh, nil when it succeeded.
    public private(set) var error: (any Error)?

    @ObservationIgnored private let writer: any DatabaseWriter
    /// The task following the database; cancelled when replaced, and when this object goes.
    @ObservationIgnored private let following = Following()

    /// Follows `fetch` on the database behind `writer`; ``value`` is `initial` until the first
    /// read succeeds (which is before this returns, unless it fails). That first read is
    /// synchronous: make live queries outside the database's own `read` and `write` closures.
    public init(
        in writer: any DatabaseWriter, initial: Value, fetch: @escaping @Sendable (Database) throws -> Value
    ) {
        self.writer = writer
        self.value = initial
        start(fetch)
    }

    /// Follows another fetch from now on (a changed filter or sort): ``value`` is its result
    /// before this returns, unless the read fails.
    public func replace(_ fetch: @escaping @Sendable (Database) throws -> Value) {
        start(fetch)
    }

    /// Stops following the database: ``value`` keeps its last result. Releasing the object does
    /// the same.
    public func cancel() {
        following.task = nil
    }

    private func start(_ fetch: @escaping @Sendable (Database) throws -> Value) {
        following.task = nil
        // The current value now, so that a view never shows a placeholder for a database that
        // answers; then every change, from GRDB's observation (which reads it once more first).
        apply(Refresh { try writer.read(fetch) })
        // A failed fetch is a value of the observation, not its end: the next commit refreshes
        // again. Values are applied on the main actor, in order.
        let values = ValueObservation.tracking { db in Refresh { try fetch(db) } }
            .removeDuplicates(by: Refresh.isSameValue)
            .values(in: writer)
        following.task = Task { @MainActor [weak self] in
            do {
                // Cancelled on the main actor (`cancel()`, `replace(_:)`): a value already on its
                // way is dropped.
                for try await refresh in values where !Task.isCancelled { self?.apply(refresh) }
            } catch {
                if !Task.isCancelled { self?.error = error }
            }
        }
    }

    private func apply(_ refresh: Refresh) {
        switch refresh {
        case .value(let value):
            if error != nil { error = nil }
            if self.value != value { self.value = value }
        case .failure(let error):
            self.error = error
        }
    }

    /// The outcome of one read.
    private enum Refresh: Sendable {
        case value(Value)
        case failure(any Error)

        init(_ read: () throws -> Value) {
            do { self = .value(try read()) } catch { self = .failure(error) }
        }

        /// True for two reads of the same value (failures are never the same).
        static func isSameValue(_ lhs: Refresh, _ rhs: Refresh) -> Bool {
            if case .value(let left) = lhs, case .value(let right) = rhs { return left == right }
            return false
        }
    }
}

/// Holds the task that follows the database, and cancels it when replaced or released (so that
/// releasing a live query stops its observation without an isolated `deinit`).
private final class Following: @unchecked Sendable {
    // Only touched on the main actor, and in `deinit`.
    var task: Task<Void, Never>? {
        didSet { oldValue?.cancel() }
    }

    deinit { task?.cancel() }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension StrataLiveQuery {
    /// Follows `fetch`, whose result is a collection (an empty one until the first read succeeds).
    public convenience init(in writer: any DatabaseWriter, fetch: @escaping @Sendable (Database) throws -> Value)
    where Value: RangeReplaceableCollection {
        self.init(in: writer, initial: Value(), fetch: fetch)
    }

    /// Follows `fetch`, whose result is optional (nil until the first read succeeds).
    public convenience init<Wrapped>(
        in writer: any DatabaseWriter, fetch: @escaping @Sendable (Database) throws -> Value
    )
    where Value == Wrapped? {
        self.init(in: writer, initial: nil, fetch: fetch)
    }
}
