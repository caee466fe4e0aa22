// SwiftLite against the raw SQLite C API, in the same process, on file databases.
//
//   swift run -c release SwiftLiteBenchmarks [--rows N] [--runs N] [--json] ...
//
// Workloads live in a registry (`Workloads.all`, see Workload.swift); each prints the
// median time of SwiftLite and of the C baseline and their ratio.

import Foundation
import SwiftLite

func standardError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

if CommandLine.arguments.dropFirst().first == MemoryChild.flag {
  try MemoryChild.run(Array(CommandLine.arguments.dropFirst(2)))
}

let options: Options
do {
  options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
  if let message = error.message { standardError("error: \(message)") }
  standardError(Options.usage)
  exit(error.message == nil ? 0 : 64)
}

if options.list {
  for workload in Workloads.all {
    let target = workload.target.map { String(format: " (target <= %.2f)", $0) } ?? ""
    print("\(workload.name): \(workload.summary)\(target)")
  }
  exit(0)
}

#if DEBUG
  standardError("warning: a debug build; measure with `swift run -c release SwiftLiteBenchmarks`")
#endif

let selected = Workloads.all.filter { options.only?.contains($0.name) ?? true }
if let only = options.only {
  let unknown = only.subtracting(Workloads.all.map(\.name))
  if !unknown.isEmpty {
    standardError("error: unknown workload(s): \(unknown.sorted().joined(separator: ", "))")
    exit(64)
  }
}

let fixtures = try Fixtures(rows: options.rows)
let runner = Runner(options: options, fixtures: fixtures)
var results: [WorkloadResult] = []
do {
  for workload in selected {
    results.append(try runner.run(workload) { if !options.json { standardError($0) } })
  }
} catch {
  fixtures.removeFiles()
  standardError("error: \(error)")
  exit(1)
}
fixtures.removeFiles()

print(options.json ? json(results) : "\n" + table(results, options: options))
if options.strict && results.contains(where: { $0.meetsTarget == false }) { exit(2) }
