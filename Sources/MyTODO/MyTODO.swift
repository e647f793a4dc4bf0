// The TODO app's data model.
//
// The types of this module are generated at build time by the StrataPlugin build tool plugin from
// the versions in Schemas/MyTODO (named by strata.yaml, next to this file). The same code is
// committed under Generated/MyTODO/Swift for review, and `strata check` keeps that copy current.
// To change the model, add a version (Schemas/MyTODO/v4.yaml) and build; then run
// `swift package --allow-writing-to-package-directory strata-generate` to refresh Generated/ and
// strata.lock, and commit them with the new version.
//
// A target that uses the plugin needs at least one Swift file of its own: this is it.

/// Facts about this module's model.
public enum MyTODOModel {
    /// The name of the model the generated code comes from: its folder under Schemas/.
    public static let name = "MyTODO"
}
