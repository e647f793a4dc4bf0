@_exported import PostgresNIO
@_exported import StrataRuntime
