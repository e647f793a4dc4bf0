import GRDB
import StrataRuntime

extension SQLiteRepository {
    /// ``StrataStore/aggregate(_:where:)``, now and after every change that affects it.
    public func observeAggregate<Value: StrataColumnValue & Equatable>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>, where filter: StrataFilter<Record>? = nil
    ) -> AsyncValueObservation<Value> {
        let query = StrataRowQuery.aggregate(aggregate, where: filter)
        return StrataObservation.values(in: writer) { db in try StrataValueRow.first(of: SQLiteExecutor.rows(query, in: db)) }
    }

    /// ``StrataStore/aggregate(_:groupedBy:where:)``, now and after every change that affects it.
    public func observeAggregate<Key: StrataSortableColumnValue & Equatable, Value: StrataColumnValue & Equatable>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>,
        groupedBy key: (Record.Columns) -> StrataColumn<Record, Key>, where filter: StrataFilter<Record>? = nil
    ) -> AsyncValueObservation<[StrataGroup<Key, Value>]> {
        observe(.aggregate(aggregate, groupedBy: key, where: filter))
    }
}
