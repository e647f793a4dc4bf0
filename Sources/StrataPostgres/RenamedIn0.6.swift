import StrataRuntime

// The names of Strata 0.5, kept for one release: Docs/MigratingTo0.6.md lists each with its new name.

@available(*, deprecated, renamed: "PostgresRepository")
public typealias StrataPostgresRepository = PostgresRepository
@available(*, deprecated, renamed: "PostgresAccess")
public typealias StrataPostgresAccess = PostgresAccess
@available(*, deprecated, renamed: "PostgresStore")
public typealias StrataPostgresStore = PostgresStore
@available(*, deprecated, renamed: "PostgresMigrator")
public typealias StrataPostgresMigrator = PostgresMigrator
@available(*, deprecated, renamed: "PostgresRecord")
public typealias StrataPostgresRecord = PostgresRecord
@available(*, deprecated, renamed: "StrataRowDecodable")
public typealias StrataPostgresRowDecodable = StrataRowDecodable
@available(*, deprecated, renamed: "StrataColumnValue", message: "values are read and bound the same way on every database")
public typealias StrataPostgresValue = StrataColumnValue
@available(*, deprecated, renamed: "PostgresTransaction")
public typealias StrataPostgresTransaction = PostgresTransaction
