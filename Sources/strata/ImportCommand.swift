import ArgumentParser
import StrataCLI

/// `strata import …`: put an existing model, store or database under Strata.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Write Strata schemas from a Core Data model or an existing database, or move a Core Data store's rows into a Strata database.",
        subcommands: [ImportCoreData.self, ImportCoreDataStore.self, ImportDatabase.self]
    )
}
