import PostgresNIO
import StrataRuntime

extension PostgresQuery {
    /// A runtime-built statement in PostgreSQL's dialect (`$1`, `$2`…), with its values bound in
    /// PostgreSQL's binary format, and then the key a command binds after them.
    @inlinable
    public init<Record: StrataRecord>(strata query: StrataSQL, binding: StrataCommand<Record>.Binding) throws {
        var bindings = PostgresBindings(capacity: query.segments.count)
        try bindings.bind(query.arguments)
        try bindings.bind(binding)
        self.init(unsafeSQL: query.sql(PostgresDialect.self), binds: bindings)
    }

    /// A runtime-built statement in PostgreSQL's dialect, with its values bound.
    @inlinable
    public init(strata query: StrataSQL) throws {
        var bindings = PostgresBindings(capacity: query.segments.count)
        try bindings.bind(query.arguments)
        self.init(unsafeSQL: query.sql(PostgresDialect.self), binds: bindings)
    }
}

extension PostgresBindings {
    /// Appends what a command binds: a record's columns in field order, or a key.
    @inlinable
    public mutating func bind<Record: StrataRecord>(_ binding: StrataCommand<Record>.Binding) throws {
        switch binding {
        case .none: break
        case .record(let record): try record.bind(to: &self)
        case .key(let key): try Record.bind(key: key, to: &self)
        }
    }
}
