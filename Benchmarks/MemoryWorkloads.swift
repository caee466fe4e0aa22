import CSQLite
import Foundation
import SwiftLite

// Peak memory of materializing a large result, each side measured in a process of its own
// (this executable run again with `--memory-child`), so that neither sees the other's
// heap: the figure is the child's peak resident set (VmHWM) minus its resident set just
// before the query, in MB.

extension Workloads {
  static let memory: [Workload] = [fetchAllMemory]

  /// `db.query` over ten times `--rows` rows (1,000,000 by default) of ten INTEGER columns,
  /// against raw C's array of plain structs of ten `Int64`.
  static let fetchAllMemory = Workload(
    name: "fetchAll_memory",
    summary: "peak RSS of db.query over 10x--rows rows x 10 INTEGER (raw: [struct]), MB",
    target: 1.15,
    swiftLite: { trial in try MemoryChild.measure(trial, side: .swiftlite) },
    raw: { trial in try MemoryChild.measure(trial, side: .raw) },
    unit: "MB")
}

/// The child process of a memory workload, and the parent's side of running it.
enum MemoryChild {
  static let flag = "--memory-child"

  /// Runs one side in a child process; records its peak memory in MB on `trial` and
  /// returns its checksum.
  static func measure(_ trial: Trial, side: Options.Side) throws -> Int64 {
    let path = trial.fixtures.largeDatabase()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = [flag, side.rawValue, path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let fields = String(decoding: data, as: UTF8.self).split(separator: " ")
    guard process.terminationStatus == 0, fields.count == 2, let checksum = Int64(fields[0]),
      let bytes = Double(fields[1].trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      throw ChildFailure(side: side.rawValue, status: process.terminationStatus)
    }
    trial.record(bytes / 1_000_000)
    return checksum
  }

  struct ChildFailure: Error, CustomStringConvertible {
    let side: String
    let status: Int32
    var description: String { "the \(side) memory child failed (status \(status))" }
  }

  /// The child: fetches every row of the file at `arguments[1]` with one side and prints
  /// "checksum peak-bytes".
  static func run(_ arguments: [String]) throws -> Never {
    guard arguments.count == 2, let side = Options.Side(rawValue: arguments[0]) else {
      standardError("usage: \(flag) swiftlite|raw FILE")
      exit(64)
    }
    let path = arguments[1]
    var checksum: Int64 = 0
    let baseline: Int
    let peak: Int
    switch side {
    case .swiftlite:
      let db = try Connection(path: path)
      baseline = memoryStatus("VmRSS")
      let rows = try db.query(Fixtures.selectAllSQL)
      peak = memoryStatus("VmHWM")
      for row in rows {
        for column in 0..<10 { checksum &+= try row.get(Int64.self, at: column) }
      }
    case .raw:
      let db = RawDatabase(path: path)
      baseline = memoryStatus("VmRSS")
      let items = Workloads.rawFetchItems(db, Fixtures.selectAllSQL)
      peak = memoryStatus("VmHWM")
      checksum = items.reduce(0) { $0 &+ $1.sum }
    }
    print(checksum, peak - baseline)
    exit(0)
  }

  /// A line of `/proc/self/status` in bytes (`VmRSS`, `VmHWM`), or 0 where there is none.
  static func memoryStatus(_ key: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return 0
    }
    for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
      let number = line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" })
        .first.flatMap { Int($0) }
      return (number ?? 0) * 1024
    }
    return 0
  }
}
