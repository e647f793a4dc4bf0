@_exported import GRDB
@_exported import StrataStorage
