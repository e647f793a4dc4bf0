/// The version of Strata: the generator, the command-line tools and the runtime are released together.
public enum StrataVersion {
    /// The release, as `strata --version` prints it and generated files' headers name it.
    public static let current = "0.6.0"
    /// The runtime API that generated code is written against: generated code declares a type
    /// conforming to `StrataRuntimeAPI<N>`, so it does not compile against a runtime of another API.
    public static let runtimeAPI = 3
}
