import Foundation

// A snapshot of a table as an earlier release left it in a database file: for an app that
// shipped model steps before it kept snapshots, whose older steps must be recorded with the
// shape they had then, not today's.
extension SchemaSnapshot.Table {
  /// The shape SwiftLite gave `table` in a database file made by an earlier release (a
  /// fixture, a copy of a user's file): its columns, key, indexes and foreign keys as SQLite
  /// reports them, the collations and AUTOINCREMENT SQLite parsed, the CHECK expressions
  /// and Swift types SwiftLite recorded for it. For recording the snapshot of a step that
  /// shipped before the app kept snapshots:
  ///
  /// ```swift
  /// import Foundation
  ///
  /// // A file as release 2 of the app left it (here made on the spot; an app keeps a fixture).
  /// struct Folder: Model { var id: Int64?; var name: String; static let primaryKey = ["id"] }
  /// struct Note: Model { var id: Int64?; var title: String; static let primaryKey = ["id"] }
  /// let fixture = URL(fileURLWithPath: "release2.sqlite")
  /// try Connection(path: fixture.path).save(Folder(id: 1, name: "Inbox"))
  /// try Connection(path: fixture.path).save(Note(id: 1, title: "Plan"))
  /// let snapshotsFolder = URL(fileURLWithPath: ".")
  ///
  /// let release2 = try Connection(path: fixture.path, options: .readOnly)
  /// let v1 = SchemaSnapshot(step: "v1-tables", tables: [
  ///   try SchemaSnapshot.Table(recordedIn: release2, table: "Folder"),
  ///   try SchemaSnapshot.Table(recordedIn: release2, table: "Note"),
  /// ])
  /// try v1.jsonData().write(to: snapshotsFolder.appendingPathComponent("v1-tables.json"))
  /// ```
  ///
  /// Use a file in which no later step changed the table. The renames and permissions the
  /// step declared are not in the file: pass them. Whether a column holds JSON is guessed
  /// from its Swift type (SwiftLite decides nothing on it). Reads only.
  /// - Parameters:
  ///   - db: a connection to the file.
  ///   - table: the table's name.
  ///   - renamedColumns: the step's renamed columns, new name -> old name.
  ///   - droppableColumns: the columns the step may drop with their values.
  ///   - lossyConvertibleColumns: the columns whose unconvertible values it may set to NULL.
  /// - Throws: ``ModelError/tableNotFound(table:)`` when there is no such table;
  ///   `SQLiteError` when reading fails.
  public init(
    recordedIn db: Connection, table: String, renamedColumns: [String: String] = [:],
    droppableColumns: Set<String> = [], lossyConvertibleColumns: Set<String> = []
  ) throws {
    guard var schema = try SchemaInspector(db).schema(of: table) else {
      throw ModelError.tableNotFound(table: table)
    }
    let record = try AutoMigration.record(of: table, in: db)
    let swiftTypes = record?.swiftTypes.flatMap(AutoMigration.decodeSwiftTypes) ?? [:]
    let createSQL =
      try record?.definition
      ?? db.scalar(
        String.self,
        "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE",
        [table]) ?? ""
    let checks = Self.columnChecks(in: createSQL)
    for index in schema.columns.indices {
      let name = schema.columns[index].name
      let metadata = try db.columnMetadata(table: schema.name, column: name)
      if metadata.collation.uppercased() != "BINARY" {
        schema.columns[index].collation = metadata.collation
      }
      if metadata.isAutoIncrement { schema.autoIncrement = true }
      schema.columns[index].check = checks[name.asciiCaseFolded]
      if let swiftType = swiftTypes[name] {
        schema.columns[index].swiftType = swiftType
        schema.columns[index].isJSON =
          schema.columns[index].type == "TEXT" && Self.looksLikeJSON(swiftType)
      }
    }
    self.init(
      schema, renamed: renamedColumns.mapValues { [$0] }, droppable: droppableColumns,
      lossy: lossyConvertibleColumns)
  }

  /// Whether a recorded Swift type is one SwiftLite stores as JSON text: a collection, or a
  /// type that is none of the standard ones stored as plain text.
  private static func looksLikeJSON(_ swiftType: String) -> Bool {
    let plain: Set<String> = ["String", "Character", "UUID", "URL", "Decimal", "Date", "Substring"]
    return swiftType.hasPrefix("Array<") || swiftType.hasPrefix("Set<")
      || swiftType.hasPrefix("Dictionary<") || swiftType.hasPrefix("[")
      || (!plain.contains(swiftType) && swiftType.first?.isUppercase == true
        && swiftType.contains("<"))
  }

  /// The CHECK expression of each column of a CREATE TABLE statement (column name folded
  /// as SQLite folds it -> the expression as written), skipping quoted text.
  static func columnChecks(in sql: String) -> [ExactText: String] {
    // The column definitions: the top-level comma-separated parts inside the parentheses.
    var parts: [String] = []
    var current = ""
    var depth = 0
    var quote: Character?
    for character in sql {
      if let open = quote {
        if character == open { quote = nil }
        if depth >= 1 { current.append(character) }
        continue
      }
      switch character {
      case "'", "\"", "`":
        quote = character
      case "[":
        quote = "]"
      case "(":
        depth += 1
        if depth == 1 { continue }
      case ")":
        depth -= 1
        if depth == 0 {
          parts.append(current)
          current = ""
          continue
        }
      case "," where depth == 1:
        parts.append(current)
        current = ""
        continue
      default: break
      }
      if depth >= 1 { current.append(character) }
    }
    var checks: [ExactText: String] = [:]
    for part in parts {
      let text = part.trimmingCharacters(in: .whitespacesAndNewlines)
      guard let name = Self.leadingName(text),
        let range = Self.checkRange(in: text)
      else { continue }
      checks[name.asciiCaseFolded] = String(text[range])
    }
    return checks
  }

  /// The first identifier of a column definition, unquoted.
  private static func leadingName(_ text: String) -> String? {
    guard let first = text.first else { return nil }
    if first == "\"" || first == "`" || first == "[" {
      let close: Character = first == "[" ? "]" : first
      let rest = text.dropFirst()
      guard let end = rest.firstIndex(of: close) else { return nil }
      return String(rest[..<end])
    }
    let name = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    let keywords = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]
    return name.isEmpty || keywords.contains(name.uppercased()) ? nil : String(name)
  }

  /// The range of the expression inside `CHECK (...)` in a column definition, outside
  /// quoted text.
  private static func checkRange(in text: String) -> Range<String.Index>? {
    var quote: Character?
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if let open = quote {
        if character == open { quote = nil }
      } else if character == "'" || character == "\"" || character == "`" {
        quote = character
      } else if character == "[" {
        quote = "]"
      } else if text[index...].prefix(5).uppercased() == "CHECK",
        index == text.startIndex || !(text[text.index(before: index)].isLetter)
      {
        var open = text.index(index, offsetBy: 5)
        while open < text.endIndex && text[open].isWhitespace { open = text.index(after: open) }
        guard open < text.endIndex, text[open] == "(" else {
          index = text.index(after: index)
          continue
        }
        var depth = 0
        var inner: Character?
        var end = open
        while end < text.endIndex {
          let c = text[end]
          if let q = inner {
            if c == q { inner = nil }
          } else if c == "'" || c == "\"" {
            inner = c
          } else if c == "(" {
            depth += 1
          } else if c == ")" {
            depth -= 1
            if depth == 0 { return text.index(after: open)..<end }
          }
          end = text.index(after: end)
        }
        return nil
      }
      index = text.index(after: index)
    }
    return nil
  }
}
