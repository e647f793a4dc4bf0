@_exported import GRDB
@_exported import StrataRuntime
