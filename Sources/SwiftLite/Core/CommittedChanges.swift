/// What committed transactions changed, as the caches and observations of a connection need
/// to know it: the (lowercased) tables whose rows changed, and whether every result may be
/// stale (the schema changed, or a change was made that no table names, such as another
/// connection's commit).
///
/// A result that read none of ``tables`` stays valid, unless ``changesEverything``.
struct CommittedChanges: Equatable, Sendable, ExpressibleByArrayLiteral {
  /// The tables whose rows changed.
  var tables: Set<String> = []
  /// Whether any result may be stale, whatever tables it read: a schema change (a table
  /// dropped, renamed or altered, a view defined again) or commits of unknown content.
  var changesEverything = false

  /// Changes that make every result stale.
  static let everything = CommittedChanges(changesEverything: true)

  init(tables: Set<String> = [], changesEverything: Bool = false) {
    self.tables = tables
    self.changesEverything = changesEverything
  }

  init(arrayLiteral tables: String...) {
    self.init(tables: Set(tables))
  }

  /// Whether nothing changed.
  var isEmpty: Bool { tables.isEmpty && !changesEverything }

  /// Whether a result that read `tablesRead` may be stale after these changes.
  func affects(_ tablesRead: Set<String>) -> Bool {
    changesEverything || !tablesRead.isDisjoint(with: tables)
  }

  /// Adds `other`'s changes to these.
  mutating func formUnion(_ other: CommittedChanges) {
    tables.formUnion(other.tables)
    changesEverything = changesEverything || other.changesEverything
  }
}
