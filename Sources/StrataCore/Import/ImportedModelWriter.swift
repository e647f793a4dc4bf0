import Foundation

/// Writes the model folder an importer produced (`strata import coredata`, `strata import
/// database`): all of it or nothing. The files are staged in a hidden folder next to the model's,
/// `strata lint` checks them there, and only then is the folder moved into place; an existing
/// model folder is never touched. A signal noted by ``Interruption`` before the move removes the
/// staging folder and writes nothing.
public enum ImportedModelWriter {
    /// Why ``write(model:versions:extraFiles:schemas:finish:)`` wrote nothing.
    public enum Failure: Error, Sendable {
        /// The imported schemas have problems (`strata lint`'s, or a model folder that exists).
        case problems([Diagnostic])
        /// A file could not be written.
        case io(String)
        /// A signal stopped the write before the model folder was moved into place: nothing was
        /// written.
        case interrupted(OutputInterrupted)
    }

    /// A file of the model folder besides its versions.
    public struct File: Sendable {
        /// The file's name in the model folder.
        public var name: String
        /// Its bytes.
        public var contents: Data

        /// Creates a file.
        public init(name: String, contents: Data) {
            self.name = name
            self.contents = contents
        }
    }

    /// Writes `schemas/<model>/vN.yaml` for every version and `extraFiles`, once `strata lint`
    /// accepts them in a staging folder; `finish` may rewrite staged files (given the checked
    /// history and the staged model folder) before the folder is moved into place. Returns the
    /// paths written and lint's warnings, located in the files written. Writes nothing on any
    /// problem, nor once `interruption` names a signal (asked before each step up to the move).
    public static func write(
        model: String, versions: [ImportedSchema], extraFiles: [File] = [], schemas: String,
        finish: (SchemaHistory, String) throws -> Void = { _, _ in },
        interruption: () -> Int32? = { Interruption.received }
    ) throws(Failure) -> (written: [String], warnings: [Diagnostic]) {
        let manager = FileManager.default
        let destination = SchemaLoader.join(schemas, model)
        if manager.fileExists(atPath: destination) {
            throw .problems([
                Diagnostic(
                    .error,
                    "'\(destination)' already exists: the import writes a new model; remove it, or choose another --model or --schemas",
                    at: .file(destination))
            ])
        }
        let createdSchemas = !manager.fileExists(atPath: schemas)
        let staging = SchemaLoader.join(schemas, ".strata-import-\(UUID().uuidString)")
        let stagedModel = SchemaLoader.join(staging, model)
        func cleanUp() {
            try? manager.removeItem(atPath: staging)
            if createdSchemas { try? manager.removeItem(atPath: schemas) }
        }
        func stopIfInterrupted() throws(Failure) {
            guard let signal = interruption() else { return }
            cleanUp()
            throw .interrupted(OutputInterrupted(signal: signal, unchanged: "'\(destination)' was not created"))
        }
        let files = versions.map { File(name: "v\($0.version).yaml", contents: Data($0.yaml.utf8)) } + extraFiles
        try stopIfInterrupted()
        do {
            try manager.createDirectory(atPath: stagedModel, withIntermediateDirectories: true)
            for file in files {
                try file.contents.write(
                    to: URL(fileURLWithPath: SchemaLoader.join(stagedModel, file.name)), options: .atomic)
                try stopIfInterrupted()
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            cleanUp()
            throw .io("cannot write the imported schemas under '\(schemas)': \(OutputTransaction.reason(error))")
        }
        let lint = Workspace.plan(schemas: staging, output: "", render: false)
        try stopIfInterrupted()
        // Where the files go: errors name lines of files that are not written, and say so.
        let relocated = lint.diagnostics.map { diagnostic in
            Diagnostic(
                diagnostic.severity,
                (diagnostic.severity == .error ? "the imported schema (not written) does not pass 'strata lint': " : "")
                    // The staging folder is no place of the user's: name the model folder instead.
                    + diagnostic.message.replacingOccurrences(of: stagedModel, with: destination)
                    .replacingOccurrences(of: staging, with: schemas),
                at: SourceLocation(
                    file: SchemaLoader.join(destination, SchemaLoader.name(of: diagnostic.location.file)),
                    line: diagnostic.location.line, column: diagnostic.location.column))
        }
        guard !lint.hasErrors else {
            cleanUp()
            throw .problems(relocated)
        }
        do {
            if let history = lint.histories.first { try finish(history, stagedModel) }
            try stopIfInterrupted()
            try manager.moveItem(atPath: stagedModel, toPath: destination)
        } catch let failure as Failure {
            throw failure
        } catch {
            cleanUp()
            throw .io("cannot write '\(destination)': \(OutputTransaction.reason(error))")
        }
        try? manager.removeItem(atPath: staging)
        return (files.map { SchemaLoader.join(destination, $0.name) }, relocated)
    }
}
