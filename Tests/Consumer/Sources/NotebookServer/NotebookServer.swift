// The notebook's server side: the Notebook model on PostgreSQL. Its types (`Note`,
// `NotebookPostgresDatabase`) are generated at build time by StrataPlugin from
// ../../Schemas/Notebook, for the database that strata.yaml names.

/// Facts about this module's model.
public enum NotebookServerModel {
    /// The model's name.
    public static let name = "Notebook"
}
