// Writes every ```swift example of README.md, of the DocC articles
// (Sources/SwiftLite/SwiftLite.docc/*.md) and of the `///` doc comments of every source file
// of Sources/SwiftLite (type-level and member-level) into Tests/DocExamplesTests/Generated,
// where `swift test` compiles them and runs each one twice in a fresh folder of its own.
//
//   swift Scripts/extract-examples.swift           # write the generated files
//   swift Scripts/extract-examples.swift --check   # fail if they differ from the documents
//
// Each example is one test, named after its document and its rank there
// (`README03`, `APIConnectionAggregates02` for the second example of
// Connection+Aggregates.swift). An example whose first line is a comment starting with
// `// Continues` (for instance `// Continues the example above.`) is appended to the one
// before it in the same document, and the two run as one test: that is the only glue, and
// it is visible in the document. An example of a doc comment (in SwiftLite, SwiftLiteTesting
// or SwiftLiteCodeGen) is code of a user of that module: its file imports SwiftLite and the
// module as a user's would, and any other module (Foundation, XCTest, CSQLite) only when
// the example imports it; everything else it uses (a connection, a table, a model type, a
// value) the example creates itself, in the doc comment. A test function without
// parameters that a doc comment's example declares at the start of a line
// (`func testMigrationHistory() throws`), as an app's test target would, is called at the
// end of the example's test. In an example,
// `import` lines stay imports of its file;
// lines at the start of a line that begin a declaration (`struct`, `enum`, `extension`,
// `final class`, `class`, `actor`, `protocol`, `func`, or an attribute such as `@MainActor`)
// are declared at file scope, `private` (so two examples may both declare a `Person`);
// everything else is the body of an `async throws` function, so `await` picks the async
// overloads as it does in a user's async code. The generated file imports only what the
// example imports: an example that uses `Data` without `import Foundation` fails to build.
import Foundation

let root = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  .deletingLastPathComponent()
let fileManager = FileManager.default
let check = CommandLine.arguments.contains("--check")
let outputDirectory = root.appendingPathComponent("Tests/DocExamplesTests/Generated")

struct Example {
  var document: String  // relative path
  var stem: String
  var lines: [Int] = []  // first line of each block, 1-based
  var code: [String] = []
}

/// The library modules whose doc comments are extracted, each a folder of Sources.
let documentedModules = ["SwiftLite", "SwiftLiteTesting", "SwiftLiteCodeGen"]

/// Every Swift file of those modules, whose `///` comments (at any indentation) may show
/// examples, in a fixed order.
func sourceFiles() -> [String] {
  var files: [String] = []
  for module in documentedModules {
    let folder = "Sources/\(module)"
    let enumerator = fileManager.enumerator(atPath: root.appendingPathComponent(folder).path)
    var found: [String] = []
    while let next = enumerator?.nextObject() as? String {
      if next.hasSuffix(".swift") { found.append("\(folder)/\(next)") }
    }
    files += found.sorted()
  }
  return files
}

/// The module a source file belongs to: the folder under Sources.
func module(of document: String) -> String? {
  let parts = document.split(separator: "/")
  guard parts.count > 2, parts[0] == "Sources", document.hasSuffix(".swift") else { return nil }
  return String(parts[1])
}

/// Articles whose examples are one app growing release by release (the same type declared
/// again in each release), which no single example can run: a test of their own runs each
/// release's code (`ShippingANewVersionTests` for the article of that name).
let narrativeArticles: Set<String> = ["ShippingANewVersion.md"]

func documents() -> [String] {
  let docc = "Sources/SwiftLite/SwiftLite.docc"
  let articles =
    (try? fileManager.contentsOfDirectory(
      atPath: root.appendingPathComponent(docc).path)) ?? []
  return ["README.md"]
    + articles.filter { $0.hasSuffix(".md") && !narrativeArticles.contains($0) }.sorted().map {
      "\(docc)/\($0)"
    } + sourceFiles()
}

func examples(in document: String) -> [Example] {
  let text = try! String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
  let name = (document as NSString).lastPathComponent
  let isSource = name.hasSuffix(".swift")
  let stem =
    isSource
    ? "API"
      + name.replacingOccurrences(of: ".swift", with: "").replacingOccurrences(of: "+", with: "")
    : name.replacingOccurrences(of: ".md", with: "")
  var result: [Example] = []
  var block: [String]? = nil
  var indent = 0
  var start = 0
  for (index, fullLine) in text.components(separatedBy: "\n").enumerated() {
    // In a source file, only doc comment lines count, without their indentation and `///`.
    let comment = fullLine.drop { $0 == " " }
    if isSource && !comment.hasPrefix("///") { continue }
    let line = isSource ? String(comment.dropFirst(comment.hasPrefix("/// ") ? 4 : 3)) : fullLine
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if block == nil {
      if trimmed == "```swift" {
        block = []
        indent = line.prefix { $0 == " " }.count
        start = index + 2
      }
    } else if trimmed == "```" {
      let code = block!
      let first = code.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
      if first.hasPrefix("// Continues"), !result.isEmpty {
        result[result.count - 1].lines.append(start)
        result[result.count - 1].code += [""] + code
      } else {
        result.append(Example(document: document, stem: stem, lines: [start], code: code))
      }
      block = nil
    } else {
      block!.append(String(line.dropFirst(min(indent, line.prefix { $0 == " " }.count))))
    }
  }
  return result
}

let declarationStarts = [
  "struct ", "enum ", "extension ", "final class ", "class ", "actor ", "protocol ", "func ",
  "@",
]

/// Braces opened minus closed, outside string literals and comments (good enough for
/// examples: no braces inside character escapes).
func braceBalance(_ line: String) -> Int {
  var balance = 0
  var inString = false
  var previous: Character = " "
  for character in line {
    if inString {
      if character == "\"" && previous != "\\" { inString = false }
    } else if character == "\"" {
      inString = true
    } else if character == "/" && previous == "/" {
      break
    } else if character == "{" {
      balance += 1
    } else if character == "}" {
      balance -= 1
    }
    previous = character
  }
  return balance
}

func source(of example: Example, name: String) -> String {
  // A doc comment's example is code of a user of its module: it imports SwiftLite and that
  // module.
  var imports: [String] =
    module(of: example.document).map { module in
      module == "SwiftLite" ? ["import SwiftLite"] : ["import SwiftLite", "import \(module)"]
    } ?? []
  // The test functions an example declares (`func testSomething() throws`, as in a test
  // target), which its test calls.
  var testFunctions: [String] = []
  var declarations: [String] = []
  var body: [String] = []
  var depth = 0
  var inDeclaration = false
  var inMultilineString = false
  for line in example.code {
    if !inDeclaration && !inMultilineString && line.hasPrefix("import ") {
      if !imports.contains(line) { imports.append(line) }
      continue
    }
    if !inDeclaration && !inMultilineString && declarationStarts.contains(where: line.hasPrefix) {
      inDeclaration = true
      depth = 0
      // In a doc comment only (an article's example calls its own): `func testName()`.
      if module(of: example.document) != nil, line.hasPrefix("func test"),
        let name = line.dropFirst(5).split(separator: "(").first,
        line.dropFirst(5 + name.count).hasPrefix("()")
      {
        testFunctions.append(String(name))
      }
      if line.hasPrefix("extension ") || line.hasPrefix("@") {
        declarations.append(line)
      } else {
        declarations.append("private " + line)
      }
      depth += braceBalance(line)
      if depth <= 0 && line.contains("}") { inDeclaration = false }
      continue
    }
    if inDeclaration {
      declarations.append(line)
      if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inMultilineString.toggle() }
      if !inMultilineString { depth += braceBalance(line) }
      if depth <= 0 && !inMultilineString { inDeclaration = false }
      continue
    }
    if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inMultilineString.toggle() }
    body.append(line.isEmpty ? "" : "  " + line)
  }
  let lines = example.lines.map(String.init).joined(separator: ", ")
  var text = """
    // swift-format-ignore-file
    // Generated by Scripts/extract-examples.swift from \(example.document), the example at
    // line \(lines). Do not edit: edit the document, then run the script.

    """
  if !imports.isEmpty { text += imports.joined(separator: "\n") + "\n" }
  if !declarations.isEmpty { text += "\n" + declarations.joined(separator: "\n") + "\n" }
  text += "\nfunc \(name)() async throws {\n"
  body += testFunctions.map { "  try \($0)()" }
  text += body.joined(separator: "\n") + "\n}\n"
  return text
}

var files: [String: String] = [:]
var tests: [(name: String, document: String, line: Int)] = []
for document in documents() {
  for (index, example) in examples(in: document).enumerated() {
    let name = "\(example.stem)\(String(format: "%02d", index + 1))"
    // Two files of one name in two folders would give two tests one name.
    guard files["\(name).swift"] == nil else {
      print("extract-examples: two documents give the example name \(name): rename one")
      exit(1)
    }
    files["\(name).swift"] = source(of: example, name: "example\(name)")
    tests.append((name, document, example.lines[0]))
  }
}
var runner = """
  // swift-format-ignore-file
  // Generated by Scripts/extract-examples.swift: one test per documentation example, run
  // twice in a fresh folder of its own. Do not edit.
  import XCTest

  final class DocExamplesTests: XCTestCase {

  """
for test in tests {
  runner += """
      /// \(test.document), line \(test.line).
      func test\(test.name)() async throws { try await runTwiceInFreshFolder(example\(test.name)) }

    """
}
runner += "}\n"
files["DocExamplesTests.swift"] = runner

var differences: [String] = []
let existing = Set(
  (try? fileManager.contentsOfDirectory(atPath: outputDirectory.path))?.filter {
    $0.hasSuffix(".swift")
  } ?? [])
for name in existing.subtracting(files.keys).sorted() {
  differences.append("\(name) is stale")
  if !check { try! fileManager.removeItem(at: outputDirectory.appendingPathComponent(name)) }
}
try! fileManager.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
for (name, text) in files.sorted(by: { $0.key < $1.key }) {
  let url = outputDirectory.appendingPathComponent(name)
  let old = try? String(contentsOf: url, encoding: .utf8)
  if old != text {
    differences.append(old == nil ? "\(name) is missing" : "\(name) differs")
    if !check { try! text.write(to: url, atomically: true, encoding: .utf8) }
  }
}
if check {
  if differences.isEmpty {
    print("extract-examples: \(tests.count) examples, generated files up to date")
  } else {
    print("extract-examples: the generated examples differ from the documents:")
    for difference in differences { print("  \(difference)") }
    print("run `swift Scripts/extract-examples.swift` and commit the result")
    exit(1)
  }
} else {
  print("extract-examples: \(tests.count) examples, \(differences.count) files written or removed")
}
