import StrataRelease

/// The version of the runtime API that generated code is written against.
///
/// Generated code declares a type conforming to `StrataRuntimeAPI<N>` for the API it was generated
/// for (as swift-protobuf's generated code checks its runtime). Against a runtime of another API
/// it does not compile: an older API's protocol is unavailable here, with a message naming both
/// versions; a newer one does not exist in an older runtime (the declaration names the version it
/// needs). Either way the fix is to regenerate with the Strata of this runtime.
public enum StrataRuntimeVersion {
    /// The Strata release this runtime belongs to.
    public static let release = StrataVersion.current
    /// The runtime API generated code must have been generated for.
    public static let api = StrataVersion.runtimeAPI
}

/// Runtime API 3 (Strata 0.6): the runtime is split into `StrataRuntime` (shared), `StrataSQLite`
/// and `StrataPostgres`; records conform to ``StrataRecord`` and to each database's record protocol.
public protocol StrataRuntimeAPI3 {}

/// Runtime API 2 (Strata 0.5): one `StrataRuntime` module, SQLite only.
@available(
    *, unavailable,
    message: "this code was generated for StrataRuntime API 2 (Strata 0.5); this StrataRuntime has API 3 (Strata 0.6): regenerate it, and depend on the StrataSQLite product"
)
public protocol StrataRuntimeAPI2 {}

/// Runtime API 1 (Strata 0.4 and earlier): a repository type per entity.
@available(
    *, unavailable,
    message: "this code was generated for StrataRuntime API 1 (Strata 0.4); this StrataRuntime has API 3 (Strata 0.6): regenerate it"
)
public protocol StrataRuntimeAPI1 {}
