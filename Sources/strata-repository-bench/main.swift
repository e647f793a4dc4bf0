import Foundation
import StrataRepositoryBenchmark

// swift run -c release strata-repository-bench [rows] [repetitions]
let arguments = CommandLine.arguments.dropFirst()
let rows = arguments.first.flatMap { Int($0) } ?? 100_000
let repetitions = arguments.dropFirst().first.flatMap { Int($0) } ?? 5

#if DEBUG
    print("warning: a debug build measures the optimizer's absence; use `swift run -c release strata-repository-bench`")
#endif
do {
    let results = try RepositoryBenchmark.run(rows: rows, repetitions: repetitions)
    print(RepositoryBenchmark.report(results, rows: rows, repetitions: repetitions))
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
