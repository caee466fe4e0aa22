/// What a ``MigrationHistoryCheck`` found, path by path.
///
/// `Sendable` and `Hashable`: a value, for XCTest and Swift Testing alike. ``description``
/// shows every failure with its schema difference.
public struct MigrationHistoryReport: Sendable, Hashable, CustomStringConvertible {
  /// One way to the last step: the fresh install, an intermediate state upgraded, a fixture
  /// upgraded.
  public struct Path: Sendable, Hashable, CustomStringConvertible {
    /// What the path is: `fresh install`, `upgrade from "v1"`, `upgrade of release2.sqlite`.
    public let name: String
    /// The error that stopped a migration on the way, if one did.
    public internal(set) var failure: String?
    /// How the final schema differs from the fresh install's.
    public internal(set) var schemaDifferences: [SchemaDifference] = []
    /// Seeded (or fixture) rows that did not survive, one line per table.
    public internal(set) var missingRows: [String] = []
    /// What the check's `verify` closures threw.
    public internal(set) var verifyFailures: [String] = []

    init(name: String) { self.name = name }

    /// Whether the path reached the fresh install's schema with every row and check.
    public var passed: Bool {
      failure == nil && schemaDifferences.isEmpty && missingRows.isEmpty
        && verifyFailures.isEmpty
    }

    /// The path and what went wrong on it.
    public var description: String {
      var lines = [name + (passed ? ": ok" : ":")]
      if let failure { lines.append("  failed: " + failure) }
      if !schemaDifferences.isEmpty {
        lines.append("  schema differs from the fresh install's:")
        lines += schemaDifferences.map {
          "    " + $0.description.replacingOccurrences(of: "\n", with: "\n    ")
        }
      }
      lines += missingRows.map { "  rows lost: " + $0 }
      lines += verifyFailures.map { "  check failed: " + $0 }
      return lines.joined(separator: "\n")
    }
  }

  /// The fresh install.
  public internal(set) var freshInstall = Path(name: "fresh install")
  /// The fresh install's schema, `nil` when it failed.
  public internal(set) var freshSchema: DatabaseSchema?
  /// The other paths, in order: each intermediate state, then each fixture.
  public internal(set) var paths: [Path] = []
  /// For each model step with a snapshot, how its tables differed from it right after it
  /// ran (empty when they matched).
  public internal(set) var snapshotDifferences: [String: [SchemaDifference]] = [:]
  /// Remarks that are not failures.
  public internal(set) var notes: [String] = []

  init() {}

  /// Whether every path passed and every model step matched its snapshot.
  public var passed: Bool {
    freshSchema != nil && freshInstall.passed && paths.allSatisfy(\.passed)
      && snapshotDifferences.values.allSatisfy(\.isEmpty)
  }

  /// The failures, path by path, with their schema differences; or a line saying all held.
  public var description: String {
    var lines = notes.map { "note: " + $0 }
    if passed {
      lines.append("migration history: \(paths.count + 1) paths reach the fresh install's schema")
      return lines.joined(separator: "\n")
    }
    if !freshInstall.passed { lines.append(freshInstall.description) }
    lines += paths.filter { !$0.passed }.map(\.description)
    for (step, differences) in snapshotDifferences.sorted(by: { $0.key < $1.key })
    where !differences.isEmpty {
      lines.append("step \"\(step)\" left its tables unlike its snapshot:")
      lines += differences.map {
        "    " + $0.description.replacingOccurrences(of: "\n", with: "\n    ")
      }
    }
    return lines.joined(separator: "\n")
  }
}
