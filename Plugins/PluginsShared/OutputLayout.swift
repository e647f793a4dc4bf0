// Shared by the CLI (through StrataCore) and the plugins, which cannot import library targets:
// the one definition of where generated files go.

/// Where Strata writes each output of a model, relative to the output folder (`Generated/`).
public enum OutputLayout {
    /// The Swift files of a model. Their names depend on the model name only, so that the build
    /// plugin can declare them without reading the schema; every one is always written.
    public static func swiftFiles(model: String) -> [String] {
        ["\(model)Models.swift"]
    }

    /// The folder of a model's Swift files, relative to the output folder.
    public static func swiftFolder(model: String) -> String { "\(model)/Swift" }
}
