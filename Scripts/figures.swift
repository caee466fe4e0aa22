// The benchmark's figures, from one file: Docs/benchmarks.json holds the ratios of several
// runs of the benchmark; the README's table, the DocC Performance article's table and
// Docs/benchmarks.svg are written from it, and CI checks that they still match it.
//
//   swift Scripts/figures.swift merge OUT.json --rows N --runs N --sqlite V RUN.json...
//   swift Scripts/figures.swift write [Docs/benchmarks.json]
//   swift Scripts/figures.swift check [Docs/benchmarks.json]
//
// `merge` turns the `--json` output of several runs into the figures file (see
// Scripts/benchmark-figures.sh); `write` rewrites the three views; `check` exits 1 when a
// view differs from what `write` would write.

import Foundation

struct Figure {
  let name: String
  let summary: String
  let target: Double?
  let unit: String
  let ratios: [Double]

  var low: Double { ratios.min() ?? .nan }
  var high: Double { ratios.max() ?? .nan }
  var median: Double {
    let sorted = ratios.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2)
      ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }
}

struct Figures {
  var date: String
  var sqlite: String
  var rows: Int
  var runsPerSide: Int
  var workloads: [Figure]
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data(("figures: " + message + "\n").utf8))
  exit(1)
}

func readJSON(_ path: String) -> Any {
  guard let data = FileManager.default.contents(atPath: path),
    let value = try? JSONSerialization.jsonObject(with: data)
  else { fail("cannot read JSON from \(path)") }
  return value
}

func load(_ path: String) -> Figures {
  guard let root = readJSON(path) as? [String: Any],
    let list = root["workloads"] as? [[String: Any]]
  else { fail("\(path) is not a figures file") }
  return Figures(
    date: root["date"] as? String ?? "", sqlite: root["sqlite"] as? String ?? "",
    rows: root["rows"] as? Int ?? 0, runsPerSide: root["runsPerSide"] as? Int ?? 0,
    workloads: list.map { entry in
      Figure(
        name: entry["name"] as? String ?? "", summary: entry["summary"] as? String ?? "",
        target: entry["target"] as? Double, unit: entry["unit"] as? String ?? "s",
        ratios: entry["ratios"] as? [Double] ?? [])
    })
}

/// Several `--json` outputs of the benchmark as one figures file, in the first run's order.
func merge(runs paths: [String], rows: Int, runsPerSide: Int, sqlite: String) -> Data {
  var order: [String] = []
  var entries: [String: [String: Any]] = [:]
  var ratios: [String: [Double]] = [:]
  for path in paths {
    guard let run = readJSON(path) as? [String: [String: Any]] else {
      fail("\(path) is not the benchmark's --json output")
    }
    // JSON objects have no order: the first run's text gives it.
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    let names = run.keys.sorted { left, right in
      (text.range(of: "\"\(left)\"")?.lowerBound ?? text.endIndex)
        < (text.range(of: "\"\(right)\"")?.lowerBound ?? text.endIndex)
    }
    for name in names {
      guard let entry = run[name] else { continue }
      if entries[name] == nil {
        order.append(name)
        entries[name] = entry
      }
      if let ratio = entry["ratio"] as? Double { ratios[name, default: []].append(ratio) }
    }
  }
  let formatter = DateFormatter()
  formatter.dateFormat = "yyyy-MM-dd"
  formatter.timeZone = TimeZone(identifier: "UTC")
  let workloads: [[String: Any]] = order.map { name in
    let entry = entries[name] ?? [:]
    var figure: [String: Any] = [
      "name": name, "summary": entry["summary"] as? String ?? "",
      "unit": entry["unit"] as? String ?? "s",
      "ratios": (ratios[name] ?? []).map { ($0 * 1000).rounded() / 1000 },
    ]
    if let target = entry["target"] as? Double { figure["target"] = target }
    return figure
  }
  let root: [String: Any] = [
    "date": formatter.string(from: Date()), "sqlite": sqlite, "rows": rows,
    "runsPerSide": runsPerSide, "workloads": workloads,
  ]
  guard
    let data = try? JSONSerialization.data(
      withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
  else { fail("cannot write the figures") }
  return data + Data("\n".utf8)
}

func ratio(_ value: Double) -> String { String(format: "%.2f", value) }

func range(_ figure: Figure) -> String {
  figure.ratios.count > 1 && ratio(figure.low) != ratio(figure.high)
    ? ratio(figure.low) + "–" + ratio(figure.high) : ratio(figure.median)
}

/// The Markdown table of the README and the DocC article.
func table(_ figures: Figures) -> String {
  var lines = [
    "Measured \(figures.date) on the project's 2-core Linux machine, SQLite \(figures.sqlite), "
      + "\(figures.rows) rows, median of \(figures.runsPerSide) runs per side, "
      + "\(figures.workloads.first?.ratios.count ?? 0) runs of the benchmark "
      + "(range over the runs; lower is better):",
    "",
    "| workload | what is measured | SwiftLite / baseline | target |",
    "|---|---|---|---|",
  ]
  for figure in figures.workloads {
    let target: String
    if let goal = figure.target {
      target = "<= " + ratio(goal) + (figure.median > goal ? " (missed)" : "")
    } else {
      target = ""
    }
    let summary = figure.summary.replacingOccurrences(of: "|", with: "\\|")
    lines.append("| \(figure.name) | \(summary) | \(range(figure)) | \(target) |")
  }
  return lines.joined(separator: "\n")
}

/// A bar per workload at the median of its runs, a whisker over their range, a red tick at
/// its target, and a line at 1.0 (the baseline's pace).
func chart(_ figures: Figures) -> String {
  let rowHeight = 22.0
  let left = 190.0
  let width = 420.0
  let top = 40.0
  let highest = figures.workloads.map(\.high).filter(\.isFinite).max() ?? 1
  let maximum = max(2.0, highest.rounded(.up))
  let scale = width / maximum
  let height = top + Double(figures.workloads.count) * rowHeight + 30
  func number(_ value: Double) -> String { String(format: "%.1f", value) }
  func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
  }
  let title =
    "SwiftLite / baseline, \(figures.date), SQLite \(figures.sqlite), \(figures.rows) rows "
    + "(bar: median, whisker: range, red: target)"
  var parts = [
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(number(left + width + 70))\" "
      + "height=\"\(number(height))\" font-family=\"sans-serif\" font-size=\"12\">",
    "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
    "<text x=\"10\" y=\"20\" font-size=\"13\">\(escape(title))</text>",
  ]
  for tick in stride(from: 0.0, through: maximum, by: 0.5) {
    let x = left + tick * scale
    parts.append(
      "<line x1=\"\(number(x))\" y1=\"\(number(top - 6))\" x2=\"\(number(x))\" "
        + "y2=\"\(number(height - 24))\" stroke=\"\(tick == 1 ? "#333" : "#ddd")\"/>")
    parts.append(
      "<text x=\"\(number(x))\" y=\"\(number(height - 10))\" text-anchor=\"middle\" "
        + "fill=\"#555\">\(number(tick))</text>")
  }
  for (index, figure) in figures.workloads.enumerated() {
    let y = top + Double(index) * rowHeight
    let median = figure.median.isFinite ? figure.median : 0
    let missed = figure.target.map { median > $0 } ?? false
    parts.append(
      "<text x=\"\(number(left - 8))\" y=\"\(number(y + 14))\" text-anchor=\"end\">"
        + "\(escape(figure.name))</text>")
    parts.append(
      "<rect x=\"\(number(left))\" y=\"\(number(y + 4))\" width=\"\(number(median * scale))\" "
        + "height=\"\(number(rowHeight - 8))\" fill=\"\(missed ? "#d9822b" : "#3a7bd5")\"/>")
    if figure.low.isFinite && figure.high.isFinite {
      parts.append(
        "<line x1=\"\(number(left + figure.low * scale))\" y1=\"\(number(y + 11))\" "
          + "x2=\"\(number(left + figure.high * scale))\" y2=\"\(number(y + 11))\" "
          + "stroke=\"#222\" stroke-width=\"1.5\"/>")
    }
    parts.append(
      "<text x=\"\(number(left + max(median, figure.high.isFinite ? figure.high : 0) * scale + 4))\" "
        + "y=\"\(number(y + 14))\">\(range(figure))</text>")
    if let target = figure.target {
      let x = left + target * scale
      parts.append(
        "<line x1=\"\(number(x))\" y1=\"\(number(y + 1))\" x2=\"\(number(x))\" "
          + "y2=\"\(number(y + rowHeight - 1))\" stroke=\"#c00\" stroke-width=\"2\"/>")
    }
  }
  parts.append("</svg>")
  return parts.joined(separator: "\n") + "\n"
}

let begin = "<!-- benchmark-figures:begin -->"
let end = "<!-- benchmark-figures:end -->"

/// `text` with what lies between the markers replaced by `table`.
func replacingTable(in text: String, with table: String, file: String) -> String {
  guard let start = text.range(of: begin), let stop = text.range(of: end),
    start.upperBound <= stop.lowerBound
  else { fail("\(file) has no \(begin) ... \(end) markers") }
  return String(text[..<start.upperBound]) + "\n" + table + "\n" + String(text[stop.lowerBound...])
}

/// Each view's file and the text it should hold.
func views(_ figures: Figures) -> [(file: String, text: String)] {
  let markdown = table(figures)
  return ["README.md", "Sources/SwiftLite/SwiftLite.docc/Performance.md"].map { file in
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
      fail("cannot read \(file)")
    }
    return (file, replacingTable(in: text, with: markdown, file: file))
  } + [("Docs/benchmarks.svg", chart(figures))]
}

let arguments = Array(CommandLine.arguments.dropFirst())
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
_ = FileManager.default.changeCurrentDirectoryPath(root.path)

switch arguments.first {
case "merge":
  guard arguments.count >= 3 else {
    fail("merge OUT.json [--rows N] [--runs N] [--sqlite V] RUN.json...")
  }
  var rest = arguments.dropFirst(2)
  var (rows, runs, sqlite) = (0, 0, "")
  var inputs: [String] = []
  while let argument = rest.popFirst() {
    switch argument {
    case "--rows": rows = Int(rest.popFirst() ?? "") ?? 0
    case "--runs": runs = Int(rest.popFirst() ?? "") ?? 0
    case "--sqlite": sqlite = rest.popFirst() ?? ""
    default: inputs.append(argument)
    }
  }
  let data = merge(runs: inputs, rows: rows, runsPerSide: runs, sqlite: sqlite)
  guard FileManager.default.createFile(atPath: arguments[1], contents: data) else {
    fail("cannot write \(arguments[1])")
  }
case "write", "check":
  let source = arguments.count > 1 ? arguments[1] : "Docs/benchmarks.json"
  var stale: [String] = []
  for (file, text) in views(load(source)) {
    let current = try? String(contentsOfFile: file, encoding: .utf8)
    guard current != text else { continue }
    if arguments[0] == "write" {
      do { try text.write(toFile: file, atomically: true, encoding: .utf8) } catch {
        fail("cannot write \(file): \(error)")
      }
      print("wrote \(file)")
    } else {
      stale.append(file)
    }
  }
  if !stale.isEmpty {
    fail(
      "\(stale.joined(separator: ", ")) do not show \(source): run "
        + "`swift Scripts/figures.swift write` (or Scripts/benchmark-figures.sh to measure again)")
  }
  if arguments[0] == "check" {
    print("figures: README, Performance.md and the chart show \(source)")
  }
default:
  fail("usage: figures.swift merge OUT.json ... | write [FILE] | check [FILE]")
}
