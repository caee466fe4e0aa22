// Checks that SwiftLite's folders are layers: a file may name only the types of its own
// folder and of the folders below it, and only Core may call the C API.
//
// The C API rule is the library's: test support written in C (Tests/PowerLossVFS, the VFS
// that simulates power loss for the tests) calls sqlite3_* by nature and is not checked
// here, but no library file may import it.
//
//   swift Scripts/check-layers.swift [Sources/SwiftLite]
//
// Exits 1 and lists each offending file, line and type when a folder names a type of a
// folder above it. The other modules of Sources (SwiftLiteTesting, the generator) are above
// every layer: they must not call the C API, and each must be a target of Package.swift.
import Foundation

/// The layers, lowest first.
let layers = ["Core", "Access", "Records", "Schema", "Query", "Store"]

let root = CommandLine.arguments.dropFirst().first ?? "Sources/SwiftLite"
let manager = FileManager.default

/// The Swift files of a layer's folder (and its subfolders).
func files(of layer: String) -> [String] {
  let folder = root + "/" + layer
  guard let enumerator = manager.enumerator(atPath: folder) else { return [] }
  return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    .map { folder + "/" + $0 }
}

/// The text with comments and string literals blanked out, line structure kept.
func code(_ text: String) -> [String] {
  var output = ""
  var index = text.startIndex
  var inBlockComment = 0
  var inString = false
  var multiline = false
  while index < text.endIndex {
    let rest = text[index...]
    if inBlockComment > 0 {
      if rest.hasPrefix("*/") {
        inBlockComment -= 1
        index = text.index(index, offsetBy: 2)
        continue
      }
      if rest.hasPrefix("/*") {
        inBlockComment += 1
        index = text.index(index, offsetBy: 2)
        continue
      }
    } else if inString {
      if rest.hasPrefix("\\") {
        index = text.index(index, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
        continue
      }
      if multiline && rest.hasPrefix("\"\"\"") {
        inString = false
        index = text.index(index, offsetBy: 3)
        continue
      }
      if !multiline && rest.hasPrefix("\"") {
        inString = false
        index = text.index(after: index)
        continue
      }
    } else if rest.hasPrefix("//") {
      while index < text.endIndex && text[index] != "\n" { index = text.index(after: index) }
      continue
    } else if rest.hasPrefix("/*") {
      inBlockComment = 1
      index = text.index(index, offsetBy: 2)
      continue
    } else if rest.hasPrefix("\"\"\"") {
      inString = true
      multiline = true
      index = text.index(index, offsetBy: 3)
      continue
    } else if rest.hasPrefix("\"") {
      inString = true
      multiline = false
      index = text.index(after: index)
      continue
    } else {
      output.append(text[index])
      index = text.index(after: index)
      continue
    }
    // Inside a comment or string: keep newlines only.
    if text[index] == "\n" { output.append("\n") }
    index = text.index(after: index)
  }
  return output.components(separatedBy: "\n")
}

func identifiers(in line: String) -> [String] {
  var names: [String] = []
  var current = ""
  for character in line {
    if character.isLetter || character.isNumber || character == "_" {
      current.append(character)
    } else {
      if !current.isEmpty { names.append(current) }
      current = ""
    }
  }
  if !current.isEmpty { names.append(current) }
  return names
}

// Which layer declares each top-level type.
var owner: [String: Int] = [:]
let declaration = try NSRegularExpression(
  pattern:
    #"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|package|fileprivate|private|final|indirect)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+(\w+)"#
)
var sources: [(layer: Int, path: String, lines: [String])] = []
for (level, layer) in layers.enumerated() {
  for path in files(of: layer) {
    let lines = code(try String(contentsOfFile: path, encoding: .utf8))
    sources.append((level, path, lines))
    for line in lines {
      let range = NSRange(line.startIndex..., in: line)
      if let match = declaration.firstMatch(in: line, range: range),
        let name = Range(match.range(at: 1), in: line)
      {
        owner[String(line[name])] = level
      }
    }
  }
}
let known = Set(
  try manager.contentsOfDirectory(atPath: root).filter {
    !$0.hasPrefix(".") && !$0.hasSuffix(".docc")
  })
let unknown = known.subtracting(layers)
var problems: [String] = unknown.sorted().map { "\(root)/\($0): a folder that is not a layer" }

for source in sources {
  for (number, line) in source.lines.enumerated() {
    if line.contains("import PowerLossVFS") {
      problems.append("\(source.path):\(number + 1): test support in the library")
    }
    if source.layer != 0 && (line.contains("sqlite3_") || line.contains("import CSQLite")) {
      problems.append("\(source.path):\(number + 1): only Core may call the C API")
    }
    for name in Set(identifiers(in: line)) {
      if let level = owner[name], level > source.layer {
        problems.append(
          "\(source.path):\(number + 1): \(layers[source.layer]) names \(name), "
            + "declared in \(layers[level]), a layer above it")
      }
    }
  }
}

// The modules beside SwiftLite (test support, the generator) sit above all its layers: they
// use its public API and never the C API; and each folder of Sources is a target that
// Package.swift declares by its path.
let sourcesFolder = URL(fileURLWithPath: root).deletingLastPathComponent().path
let manifest =
  (try? String(
    contentsOfFile: URL(fileURLWithPath: sourcesFolder).deletingLastPathComponent()
      .appendingPathComponent("Package.swift").path, encoding: .utf8)) ?? ""
let modules = ((try? manager.contentsOfDirectory(atPath: sourcesFolder)) ?? []).filter {
  !$0.hasPrefix(".") && $0 != "CSQLite"
}.sorted()
for module in modules {
  if !manifest.contains("path: \"Sources/\(module)\"") {
    problems.append(
      "\(sourcesFolder)/\(module): not a target of Package.swift (path: \"Sources/\(module)\")")
  }
  guard module != URL(fileURLWithPath: root).lastPathComponent,
    let enumerator = manager.enumerator(atPath: sourcesFolder + "/" + module)
  else { continue }
  for case let file as String in enumerator where file.hasSuffix(".swift") {
    let path: String = sourcesFolder + "/" + module + "/" + file
    let lines = code((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
    for (number, line) in lines.enumerated()
    where line.contains("sqlite3_") || line.contains("import CSQLite") {
      problems.append("\(path):\(number + 1): only SwiftLite's Core may call the C API")
    }
  }
}

if problems.isEmpty {
  print("Layers hold: " + layers.joined(separator: " < ") + " (\(sources.count) files).")
} else {
  for problem in problems { print(problem) }
  print("\(problems.count) layer violation(s).")
  exit(1)
}
