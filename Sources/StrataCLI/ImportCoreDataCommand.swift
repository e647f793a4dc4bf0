import ArgumentParser
import Foundation
import StrataCore
import StrataCoreDataImport

/// `strata import coredata <Model.xcdatamodeld> [--model NAME] [--schemas DIR] [--order a,b,c]
/// [--key Entity.attr]… [--transformable-as-data]`.
package struct ImportCoreData: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "coredata",
        abstract: "Write Schemas/<Model>/v1.yaml … vN.yaml from a Core Data model's versions.",
        discussion: """
            Reads a .xcdatamodeld bundle (one version per .xcdatamodel; the one in .xccurrentversion \
            is the latest) or a single .xcdatamodel, and writes one Strata version per Core Data \
            version, plus coredata-mapping.json (where each field's values live in a Core Data \
            store). Versions are ordered the way Xcode names them (Model, Model 2, Model 3, …) with the \
            current one last; the order chosen is printed, and --order overrides it.

            Attributes become fields of the matching type (URI as String, Transformable only with \
            --transformable-as-data, as Data); transient and derived attributes, fetched properties, \
            fetch requests and configurations are skipped with a note. Each entity's primary key is \
            its required UUID attribute 'id', the attribute named by --key, or a generated \
            'id: { type: Int64, autoincrement: true }' (named 'objectID' when an attribute 'id' cannot \
            be the key: it stays an ordinary field). To-one relationships become references \
            (onDelete from the delete rule), to-many ones hasMany, many-to-many and inverse-less \
            to-many ones join entities. Inheritance is flattened. Between versions, renaming \
            identifiers become renamedFrom and what lightweight migration dropped becomes \
            migration.allowDataLoss; a required property a version adds without a default is an error \
            (for a to-one relationship whose reference stays optional, a warning with \
            --allow-new-required-to-one).

            Writes nothing when there is an error (exit status 1), when Schemas/<Model> exists, or \
            when the result would not pass 'strata lint'.
            """
    )

    @Argument(help: ArgumentHelp("The Core Data model: a .xcdatamodeld bundle or a .xcdatamodel.", valueName: "model"))
    var path: String

    @Option(name: .long, help: ArgumentHelp("The Strata model's name (default: the bundle's name).", valueName: "name"))
    var model: String?

    @OptionGroup var schemaOptions: SchemaOptions

    @Option(
        name: .long, help: ArgumentHelp("The Core Data versions, oldest first, comma-separated.", valueName: "a,b,c"))
    var order: String?

    @Option(
        name: .long, help: ArgumentHelp("An entity's primary key attribute (repeatable).", valueName: "Entity.attr"))
    var key: [String] = []

    @Flag(name: .long, help: "Import Transformable attributes as Data (their archived bytes) instead of failing.")
    var transformableAsData = false

    @Flag(
        name: .long,
        help:
            "Accept a required to-one relationship that a version adds (or makes required) where Strata's reference stays optional: a warning instead of an error."
    )
    var allowNewRequiredToOne = false

    package init() {}

    package func validate() throws {
        for item in key {
            let parts = item.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError("--key expects Entity.attribute, found '\(item)'")
            }
        }
        if let order, order.split(separator: ",").isEmpty {
            throw ValidationError("--order expects the version names, comma-separated")
        }
    }

    package func run() throws {
        var keys: [String: String] = [:]
        for item in key {
            let parts = item.split(separator: ".")
            keys[String(parts[0])] = String(parts[1])
        }
        let options = CoreDataImporter.Options(
            model: model,
            order: order.map { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } },
            keys: keys, transformableAsData: transformableAsData, allowNewRequiredToOne: allowNewRequiredToOne)
        let outcome = CoreDataImporter.run(path, options: options)
        if !outcome.order.isEmpty {
            print("Core Data versions, oldest first:")
            for (offset, version) in outcome.order.enumerated() {
                print("  v\(offset + 1): \(version.name)\(version.isCurrent ? " (current)" : "")")
            }
        }
        try ImportOutput.finish(outcome.diagnostics) { () throws(ImportedModelWriter.Failure) in
            try CoreDataImporter.write(outcome, schemas: schemaOptions.schemas)
        }
    }
}
