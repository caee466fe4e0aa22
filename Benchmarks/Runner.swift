import Foundation
import SwiftLite

/// Command-line options.
struct Options {
  var rows = 100_000
  var runs = 7
  var warmup = 1
  var only: Set<String>?
  var json = false
  var strict = false
  var list = false
  /// Run only one side, for a profiler (`perf record ... --side swiftlite`).
  var side: Side?

  enum Side: String { case swiftlite, raw }

  static let usage = """
    usage: SwiftLiteBenchmarks [--rows N] [--runs N] [--warmup N] [--only a,b] [--json] [--strict] [--list]

      --rows N     rows per workload (default 100000)
      --runs N     timed runs per side; the median is reported (default 7)
      --warmup N   untimed runs per side before those (default 1)
      --only a,b   run only these workloads (see --list)
      --json       print {"workload": {"swiftlite_s": .., "raw_s": .., "ratio": .., ...}} only
      --strict     exit with status 2 when a workload misses its target ratio
      --list       list the workloads and exit
      --side S     run only one side, "swiftlite" or "raw" (for a profiler; no ratio)

    Build and run in release mode:
      swift run -c release SwiftLiteBenchmarks
    The README's table, the DocC Performance article and Docs/benchmarks.svg come from
    Docs/benchmarks.json, which Scripts/benchmark-figures.sh writes from three --json runs.
    """

  static func parse(_ arguments: [String]) throws -> Options {
    var options = Options()
    var rest = arguments[...]
    func number(_ flag: String) throws -> Int {
      guard let text = rest.popFirst(), let value = Int(text), value >= 0 else {
        throw UsageError(message: "\(flag) needs a non-negative number")
      }
      return value
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--rows": options.rows = max(1, try number(argument))
      case "--runs": options.runs = max(1, try number(argument))
      case "--warmup": options.warmup = try number(argument)
      case "--only":
        guard let names = rest.popFirst() else { throw UsageError(message: "--only needs names") }
        options.only = Set(names.split(separator: ",").map(String.init))
      case "--json": options.json = true
      case "--strict": options.strict = true
      case "--list": options.list = true
      case "--side":
        guard let name = rest.popFirst(), let side = Side(rawValue: name) else {
          throw UsageError(message: "--side needs swiftlite or raw")
        }
        options.side = side
      case "-h", "--help": throw UsageError(message: nil)
      default: throw UsageError(message: "unknown argument '\(argument)'")
      }
    }
    return options
  }
}

struct UsageError: Error {
  let message: String?
}

/// The medians of one workload.
struct WorkloadResult {
  let workload: Workload
  let swiftLiteSeconds: Double
  let rawSeconds: Double
  var ratio: Double { swiftLiteSeconds / rawSeconds }
  var meetsTarget: Bool? { workload.target.map { ratio <= $0 } }
}

struct ChecksumMismatch: Error, CustomStringConvertible {
  let workload: String
  let swiftLite: Int64
  let raw: Int64
  var description: String {
    "\(workload): SwiftLite and raw C disagree (checksum \(swiftLite) vs \(raw))"
  }
}

/// Runs workloads: warm-up runs, then timed runs alternating which side goes first (so a
/// drift in the machine's speed does not favour one side), and reports the medians.
struct Runner {
  let options: Options
  let fixtures: Fixtures

  func run(_ workload: Workload, progress: (String) -> Void) throws -> WorkloadResult {
    var swiftLiteTimes: [Double] = []
    var rawTimes: [Double] = []
    for index in 0..<(options.warmup + options.runs) {
      let sides: [(Bool, (Trial) throws -> Int64)] =
        index.isMultiple(of: 2)
        ? [(true, workload.swiftLite), (false, workload.raw)]
        : [(false, workload.raw), (true, workload.swiftLite)]
      var checksums: [Bool: Int64] = [:]
      var seconds: [Bool: Double] = [:]
      for (isSwiftLite, side) in sides {
        if let only = options.side, isSwiftLite != (only == .swiftlite) {
          checksums[isSwiftLite] = 0
          seconds[isSwiftLite] = .nan
          continue
        }
        // Each side starts from a cold heap: memory the other side freed is handed back
        // to the system first, so neither reuses the other's pages.
        releaseFreeMemory()
        let trial = Trial(fixtures: fixtures)
        checksums[isSwiftLite] = try side(trial)
        guard let elapsed = trial.seconds else {
          fatalError("\(workload.name): a side never called trial.time(_:)")
        }
        seconds[isSwiftLite] = elapsed
      }
      guard checksums[true] == checksums[false] || options.side != nil else {
        throw ChecksumMismatch(
          workload: workload.name, swiftLite: checksums[true]!, raw: checksums[false]!)
      }
      let label = index < options.warmup ? "warm-up" : "run \(index - options.warmup + 1)"
      progress(
        "  \(workload.name) \(label): SwiftLite \(format(seconds[true]!, workload.unit)), "
          + "raw \(format(seconds[false]!, workload.unit))"
      )
      if index >= options.warmup {
        swiftLiteTimes.append(seconds[true]!)
        rawTimes.append(seconds[false]!)
      }
    }
    return WorkloadResult(
      workload: workload, swiftLiteSeconds: median(swiftLiteTimes), rawSeconds: median(rawTimes))
  }
}

/// Returns the heap's free pages to the system (`malloc_trim(0)` on Linux), so that a
/// trial's allocations fault in fresh pages as they would in a process of its own.
func releaseFreeMemory() {
  #if canImport(Glibc)
    _ = mallocTrim?(0)
  #endif
}

#if canImport(Glibc)
  /// glibc's `malloc_trim`, looked up at run time (its header is not part of the Glibc module).
  private let mallocTrim: (@convention(c) (Int) -> Int32)? = {
    guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
  }()
#endif

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

func format(_ seconds: Double) -> String { String(format: "%.4f", seconds) }

/// A measure with its unit: seconds as in ``format(_:)``, anything else (`MB`) with one
/// decimal and the unit.
func format(_ value: Double, _ unit: String) -> String {
  unit == "s" ? format(value) + "s" : String(format: "%.1f ", value) + unit
}

/// A figure of the table: seconds bare, other units named.
private func measure(_ value: Double, _ unit: String) -> String {
  unit == "s" ? format(value) : format(value, unit)
}

/// The human-readable report: one line per workload.
func table(_ results: [WorkloadResult], options: Options) -> String {
  func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return right ? fill + text : text + fill
  }
  let nameWidth = max(8, results.map(\.workload.name.count).max() ?? 0) + 2
  var lines = [
    "SwiftLite benchmarks: \(options.rows) rows, median of \(options.runs) run(s), "
      + "SQLite \(Connection.sqliteVersion)",
    "",
    pad("workload", nameWidth) + pad("SwiftLite s", 11, right: true)
      + pad("raw C s", 10, right: true) + pad("ratio", 7, right: true)
      + pad("target", 9, right: true) + "       what",
  ]
  for result in results {
    let target = result.workload.target.map { String(format: "<= %.2f", $0) } ?? "-"
    let verdict: String
    switch result.meetsTarget {
    case true?: verdict = "ok  "
    case false?: verdict = "MISS"
    case nil: verdict = "    "
    }
    lines.append(
      pad(result.workload.name, nameWidth)
        + pad(measure(result.swiftLiteSeconds, result.workload.unit), 11, right: true)
        + pad(measure(result.rawSeconds, result.workload.unit), 10, right: true)
        + pad(String(format: "%.2f", result.ratio), 7, right: true)
        + pad(target, 9, right: true) + "  " + verdict + " " + result.workload.summary)
  }
  lines.append("")
  lines.append(
    "ratio = SwiftLite / raw C. Raw C opens the file with OpenOptions()' flags and pragmas.")
  return lines.joined(separator: "\n")
}

/// `{"workload": {"swiftlite_s": .., "raw_s": .., "ratio": .., "target": .., "summary": ..,
/// "unit": ..}, ...}` in run order (`target` is null without one; `unit` is `"s"`, or what
/// the figures are in).
func json(_ results: [WorkloadResult]) -> String {
  // A side not run (`--side`) has no time: JSON has no NaN, so it is null.
  func number(_ value: Double, _ format: String) -> String {
    value.isFinite ? String(format: format, value) : "null"
  }
  let entries = results.map { result in
    "  \"\(result.workload.name)\": {\"swiftlite_s\": \(number(result.swiftLiteSeconds, "%.6f")), "
      + "\"raw_s\": \(number(result.rawSeconds, "%.6f")), "
      + "\"ratio\": \(number(result.ratio, "%.4f")), "
      + "\"target\": \(result.workload.target.map { number($0, "%.2f") } ?? "null"), "
      + "\"summary\": \(jsonString(result.workload.summary)), "
      + "\"unit\": \"\(result.workload.unit)\"}"
  }
  return "{\n" + entries.joined(separator: ",\n") + "\n}"
}

/// `text` as a JSON string literal.
private func jsonString(_ text: String) -> String {
  var result = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\n": result += "\\n"
    case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
    default: result.unicodeScalars.append(scalar)
    }
  }
  return result + "\""
}
