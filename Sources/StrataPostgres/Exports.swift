@_exported import StrataRuntime
