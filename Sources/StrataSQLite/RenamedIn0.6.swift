import GRDB
import StrataRuntime

// The names of Strata 0.5, kept for one release: Docs/MigratingTo0.6.md lists each with its new name.

@available(*, deprecated, renamed: "SQLiteRepository")
public typealias StrataRepository = SQLiteRepository
@available(*, deprecated, renamed: "SQLiteAccess")
public typealias StrataAccess = SQLiteAccess
@available(*, deprecated, renamed: "SQLiteStore")
public typealias StrataRecordStore = SQLiteStore
@available(*, deprecated, renamed: "SQLiteMigrator")
public typealias StrataMigrator = SQLiteMigrator
@available(*, deprecated, renamed: "SQLiteRecord")
public typealias StrataSQLiteRecord = SQLiteRecord
@available(*, deprecated, renamed: "StrataRowDecodable")
public typealias StrataSQLiteRowDecodable = StrataRowDecodable
@available(*, deprecated, renamed: "StrataColumnValue", message: "values are read and bound the same way on every database")
public typealias StrataSQLiteValue = StrataColumnValue
