// SQL text compared by its tokens: the same statement written with other spacing, comments,
// letter case of keywords and identifiers, or identifier quotes compares equal; string
// literals are compared exactly.
enum SQLText {
  /// One token of SQL.
  struct Token: Equatable {
    enum Kind: Equatable {
      /// A keyword or an identifier (bare or quoted), lower-cased.
      case word
      /// A string literal, as written with its quotes.
      case string
      /// A number, a blob literal, an operator or punctuation, as written.
      case symbol
    }
    var kind: Kind
    var text: String
    /// Whether a word was written quoted.
    var wasQuoted = false
  }

  private static let operators = ["->>", "->", "<=", ">=", "<>", "!=", "==", "||", "<<", ">>"]

  /// The tokens of `sql`, comments and spacing dropped.
  static func tokens(_ sql: String) -> [Token] {
    let scalars = Array(sql.unicodeScalars)
    var tokens: [Token] = []
    var index = 0
    func text(_ range: Range<Int>) -> String {
      var result = ""
      result.unicodeScalars.append(contentsOf: scalars[range])
      return result
    }
    func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
      scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic
        || ("0"..."9").contains(scalar) || scalar.value > 0x7F
    }
    while index < scalars.count {
      let scalar = scalars[index]
      let next = index + 1 < scalars.count ? scalars[index + 1] : nil
      if scalar.properties.isWhitespace {
        index += 1
      } else if scalar == "-" && next == "-" {
        while index < scalars.count && scalars[index] != "\n" { index += 1 }
      } else if scalar == "/" && next == "*" {
        index += 2
        while index < scalars.count
          && !(scalars[index] == "*" && index + 1 < scalars.count && scalars[index + 1] == "/")
        {
          index += 1
        }
        index += 2
      } else if scalar == "'" || scalar == "\"" || scalar == "`" || scalar == "[" {
        let close: Unicode.Scalar = scalar == "[" ? "]" : scalar
        let start = index
        index += 1
        while index < scalars.count {
          if scalars[index] == close {
            // A doubled quote is the quote itself (not for brackets).
            if close != "]", index + 1 < scalars.count, scalars[index + 1] == close {
              index += 2
              continue
            }
            break
          }
          index += 1
        }
        let end = min(index + 1, scalars.count)
        index = end
        if scalar == "'" {
          tokens.append(Token(kind: .string, text: text(start..<end)))
        } else {
          var inner = text((start + 1)..<max(start + 1, end - 1))
          if close != "]" {
            inner = inner.replacingOccurrences(
              of: String(close) + String(close), with: String(close))
          }
          tokens.append(Token(kind: .word, text: inner.lowercased(), wasQuoted: true))
        }
      } else if ("0"..."9").contains(scalar)
        || (scalar == "." && next.map { ("0"..."9").contains($0) } == true)
      {
        let start = index
        index += 1
        while index < scalars.count
          && (isWordScalar(scalars[index]) || scalars[index] == "."
            || ((scalars[index] == "+" || scalars[index] == "-")
              && (scalars[index - 1] == "e" || scalars[index - 1] == "E")))
        {
          index += 1
        }
        tokens.append(Token(kind: .symbol, text: text(start..<index).lowercased()))
      } else if (scalar == "x" || scalar == "X") && next == "'" {
        let start = index
        index += 2
        while index < scalars.count && scalars[index] != "'" { index += 1 }
        index = min(index + 1, scalars.count)
        tokens.append(Token(kind: .symbol, text: text(start..<index).lowercased()))
      } else if isWordScalar(scalar) {
        let start = index
        while index < scalars.count && isWordScalar(scalars[index]) { index += 1 }
        tokens.append(Token(kind: .word, text: text(start..<index).lowercased()))
      } else {
        let rest = text(index..<min(index + 3, scalars.count))
        let symbol = operators.first { rest.hasPrefix($0) } ?? String(scalar)
        index += symbol.unicodeScalars.count
        tokens.append(Token(kind: .symbol, text: symbol))
      }
    }
    return tokens
  }

  /// The tokens as one line: words lower-case and unquoted when they need no quotes, one
  /// space between tokens except around `(`, `)`, `,` and `.` where none is needed.
  static func render(_ tokens: [Token]) -> String {
    var result = ""
    var previous: Token?
    for token in tokens {
      var text = token.text
      if token.kind == .word && token.wasQuoted && !isPlainWord(text) {
        text = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      }
      if let previous {
        let tight =
          [")", ",", ".", ";"].contains(token.text) && token.kind == .symbol
          || ["(", "."].contains(previous.text) && previous.kind == .symbol
          || token.text == "(" && token.kind == .symbol && previous.kind == .word
        if !tight { result += " " }
      }
      result += text
      previous = token
    }
    return result
  }

  /// `sql` normalized: see ``render(_:)``.
  static func normalized(_ sql: String) -> String { render(tokens(sql)) }

  private static func isPlainWord(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
    return text.unicodeScalars.allSatisfy {
      $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0)
    }
  }

  /// The definitions between the outer parentheses of a `CREATE TABLE` statement, split at
  /// their commas: column definitions and table constraints.
  static func definitions(inCreateTable sql: String) -> [[Token]] {
    let tokens = tokens(sql)
    guard let open = tokens.firstIndex(where: { $0.kind == .symbol && $0.text == "(" }) else {
      return []
    }
    var parts: [[Token]] = [[]]
    var depth = 0
    for token in tokens[(open + 1)...] {
      if token.kind == .symbol && token.text == "(" { depth += 1 }
      if token.kind == .symbol && token.text == ")" {
        if depth == 0 { break }
        depth -= 1
      }
      if depth == 0 && token.kind == .symbol && token.text == "," {
        parts.append([])
      } else {
        parts[parts.count - 1].append(token)
      }
    }
    return parts.filter { !$0.isEmpty }
  }

  /// Whether a definition is a table constraint rather than a column.
  private static func isTableConstraint(_ part: [Token]) -> Bool {
    part[0].kind == .word && !part[0].wasQuoted
      && ["constraint", "primary", "unique", "check", "foreign"].contains(part[0].text)
  }

  /// The parenthesized expressions that follow the word `keyword` in `part`, each with
  /// its parentheses.
  private static func expressions(after keyword: String, in part: [Token]) -> [[Token]] {
    var found: [[Token]] = []
    var index = 0
    while index < part.count {
      guard part[index].kind == .word, !part[index].wasQuoted, part[index].text == keyword,
        index + 1 < part.count, part[index + 1].text == "("
      else {
        index += 1
        continue
      }
      var level = 0
      var end = index + 1
      while end < part.count {
        if part[end].kind == .symbol && part[end].text == "(" { level += 1 }
        if part[end].kind == .symbol && part[end].text == ")" {
          level -= 1
          if level == 0 { break }
        }
        end += 1
      }
      found.append(Array(part[(index + 1)...min(end, part.count - 1)]))
      index = end + 1
    }
    return found
  }

  /// The CHECK constraints of a `CREATE TABLE` statement, normalized: `check (<expr>)` for
  /// a table constraint, `check (<expr>) on <column>` for a column's.
  static func checks(inCreateTable sql: String) -> [String] {
    var checks: [String] = []
    for part in definitions(inCreateTable: sql) {
      for expression in expressions(after: "check", in: part) {
        let text = "check " + render(expression)
        checks.append(isTableConstraint(part) ? text : text + " on " + render([part[0]]))
      }
    }
    return checks.sorted()
  }

  /// The expressions of the generated columns of a `CREATE TABLE` statement, normalized:
  /// `generated as (<expr>) on <column>`.
  static func generatedColumns(inCreateTable sql: String) -> [String] {
    definitions(inCreateTable: sql).filter { !isTableConstraint($0) }.flatMap { part in
      expressions(after: "as", in: part).map {
        "generated as " + render($0) + " on " + render([part[0]])
      }
    }.sorted()
  }
}
