// The refusals among migration errors: what a plan finds before anything is written, each
// with the table, what it concerns, why, and how to permit or avoid the change.
extension MigrationError {
  /// The refusals this error carries: the list of ``refused(table:refusals:)``, the error
  /// itself for a single refusal (``wouldLoseData(table:column:rows:)``, ...), none for
  /// other errors (a constraint violated while applying, a read-only connection, ...).
  /// The same list as the ``MigrationPlan/refusals`` of the plan that was refused.
  public var refusals: [MigrationRefusal] {
    if case .refused(_, let refusals) = self { return refusals }
    return MigrationRefusal(self).map { [$0] } ?? []
  }

  /// The error a plan's refusals make: `nil` for none, the refusal's own case for one,
  /// ``refused(table:refusals:)`` for more.
  init?(table: String, refusals: [MigrationRefusal]) {
    switch refusals.count {
    case 0: return nil
    case 1: self = refusals[0].error
    default: self = .refused(table: table, refusals: refusals)
    }
  }

  /// How to declare the `Set<String>` requirement `name` of ``Model`` listing `column`,
  /// and why the type is written: `static let name = ["column"]` declares a new
  /// `[String]` property of the model instead, which SwiftLite never reads.
  static func setDeclaration(_ name: String, _ column: String) -> String {
    "Declare it with its type: static let \(name): Set<String> = [\"\(column)\"] "
      + "(written without \": Set<String>\", the array literal makes a new [String] property "
      + "that SwiftLite never reads)"
  }

  /// For a refusal: its table, what it concerns (a column, triggers, the changes that need
  /// a rebuild), the reason, and the fix. `nil` for an error that is no refusal of a plan.
  /// A constraint violated is one when planning finds it (NULLs, duplicates), and keeps its
  /// own description either way.
  var refusalParts: (table: String, subject: String, reason: String, fix: String)? {
    switch self {
    case .wouldLoseData(let table, let column, let rows):
      return (
        table, "column \(column)",
        "\(table).\(column) was removed from the model but holds values in \(rows) row(s)",
        "add \"\(column)\" to the model's droppableColumns to drop them, or keep the property. "
          + Self.setDeclaration("droppableColumns", column)
      )
    case .notNullWithoutDefault(let table, let column):
      return (
        table, "column \(column)",
        "\(table).\(column) is new and NOT NULL but has no default for the existing rows",
        "make the property optional or declare .default(...) in columnConstraints"
      )
    case .lossyTypeChange(let table, let column, let newType):
      return (
        table, "column \(column)",
        "\(table).\(column): some stored values cannot convert to \(newType)",
        "convert them first, or add \"\(column)\" to lossyConvertibleColumns to set them to "
          + "NULL. " + Self.setDeclaration("lossyConvertibleColumns", column)
      )
    case .valuesDoNotDecode(let table, let column, let type):
      return (
        table, "column \(column)",
        "\(table).\(column): some stored values do not decode as \(type), its new Swift type",
        "convert them first (an UPDATE of your own), or keep the old type"
      )
    case .rebuildWouldDropConstraints(let table, let changes, let clauses, let sql):
      let cause = changes.isEmpty ? "this change" : changes.joined(separator: ", ")
      return (
        table, cause,
        "\(table) must be rebuilt for " + cause + ", and its CREATE statement has "
          + clauses.joined(separator: ", ") + " clauses that SQLite does not report, so the "
          + "rebuilt table would lose them",
        "declare them in the model (columnConstraints, autoIncrement) and set "
          + "allowsRebuildingAdoptedTable, or change the model so that no rebuild is needed. "
          + "The table is: \(sql)"
      )
    case .triggersWouldNotCompile(let table, let triggers, let messages):
      let named = zip(triggers, messages).map { "\($0) (\($1))" }.joined(separator: ", ")
      return (
        table, "trigger(s) " + triggers.joined(separator: ", "),
        "\(table) must be rebuilt, and its trigger(s) " + named + " do not compile "
          + "against the new columns",
        "drop or rewrite them first (DROP TRIGGER, then CREATE TRIGGER after the migration); "
          + "a full-text index's triggers are recreated by SwiftLite when the model declares "
          + "the index in fullTextIndexes"
      )
    case .refused(let table, let refusals):
      return (
        table, refusals.map(\.subject).joined(separator: "; "),
        "\(table): the migration is refused for \(refusals.count) reasons, and nothing was "
          + "written: " + refusals.map { $0.reason + " (" + $0.fix + ")" }.joined(separator: "; "),
        "fix each, then migrate again"
      )
    case .constraintViolated(let table, let step, let message):
      return (
        table, step, "\(table): existing rows violate the new schema (\(message)) during: \(step)",
        "change or delete the rows that break it first (an UPDATE or DELETE of your own), "
          + "declare a default for the NULLs, or keep the constraint"
      )
    case .tableRenameConflict(let table, let previousName):
      return (
        table, "tables \(previousName) and \(table)",
        "\(table) was renamed from \(previousName), and the database has both tables",
        "move the rows you want to keep into one of them and drop the other (DROP TABLE), "
          + "or remove \(previousName) from previousTableNames"
      )
    case .foreignKeyMismatch(let table, let child, let parent, let columns):
      let named = parent + "(" + columns.joined(separator: ", ") + ")"
      let key = columns.isEmpty ? "the primary key of \(parent)" : named
      if table.asciiCaseFolded == child.asciiCaseFolded {
        return (
          table, "foreign key to \(named)",
          "\(child)'s foreign key references \(key), which is not the primary key or a "
            + "unique index of the table \(parent) as it is in the file (a column renamed or "
            + "removed there?)",
          "name the columns \(parent) has now in the model's foreignKeys (after a rename, "
            + "its new name), or migrate \(parent)'s model first when it brings them"
        )
      }
      return (
        table, "column(s) \(columns.joined(separator: ", ")) referenced by \(child)",
        "\(table)'s migration removes \(columns.joined(separator: ", ")), which the foreign "
          + "key of \(child) references: every write of \(child) would then fail",
        "rename the column with renamedProperties (\(child)'s key follows the rename), or "
          + "keep it, or first migrate \(child) to a model whose foreignKeys no longer name it"
      )
    case .foreignKeyViolation, .readOnlyConnection,
      .mustRunOutsideTransaction, .needsMigration, .notManaged:
      return nil
    }
  }
}
