import ArgumentParser

/// `strata import …`: put an existing model or database under Strata.
package struct Import: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Write Strata schemas from an existing model (a Core Data model).",
        subcommands: [ImportCoreData.self]
    )

    package init() {}
}
