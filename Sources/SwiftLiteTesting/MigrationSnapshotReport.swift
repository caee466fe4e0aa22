/// What a ``MigrationSnapshotCheck`` found: each problem with what to do about it.
///
/// `Sendable` and `Hashable`: a value, for XCTest and Swift Testing alike.
public struct MigrationSnapshotReport: Sendable, Hashable, CustomStringConvertible {
  /// One problem, and its fix in ``description``.
  public enum Problem: Sendable, Hashable, CustomStringConvertible {
    /// The model step `step` has no snapshot; `file` is where it belongs.
    case missing(step: String, file: String)
    /// The snapshot of `step` was recorded now into `file`, from the models as compiled
    /// now. `tablesRegisteredLater` are its tables that a later step registers again: their
    /// shape when `step` was written may not be today's.
    case recorded(step: String, file: String, tablesRegisteredLater: [String])
    /// The model of `table` no longer has the shape recorded for `step`, the last step that
    /// registers it; `changes` are the differing lines (`- recorded:`, `+ now:`).
    case modelChanged(table: String, step: String, file: String, changes: [String])
    /// `file` is not a snapshot this version of SwiftLite reads.
    case unreadable(file: String, reason: String)
    /// `file` records `step`, which is not a model step of the migrator.
    case notAModelStep(step: String, file: String)
    /// Several files record `step`.
    case sharedStep(step: String, files: [String])
    /// The model steps `steps` would be recorded in the same file.
    case sharedFileName(steps: [String], file: String)

    /// What is wrong and what to do.
    public var description: String {
      let record =
        "run the tests with \(MigrationSnapshotCheck.recordEnvironmentVariable)=1"
        + " (or run(record: true)), review and commit the file"
      switch self {
      case .missing(let step, let file):
        return "model step \"\(step)\" has no snapshot (\(file)): \(record)."
      case .recorded(let step, let file, let later):
        var text =
          "recorded the snapshot of model step \"\(step)\" into \(file): review and commit it,"
          + " then run again without recording (a build copies it into the resources)."
        if !later.isEmpty {
          text +=
            " It was made from today's models, and a later step registers "
            + later.joined(separator: ", ")
            + " again: if they changed since this step shipped, write the file from the shape"
            + " they had then (SchemaSnapshot.Table(recordedIn:table:) reads it from a"
            + " database file that release made)."
        }
        return text
      case .modelChanged(let table, let step, let file, let changes):
        return "the model of \(table) changed since \"\(step)\", the last step that registers"
          + " it, was recorded (\(file)):\n"
          + changes.map { "    " + $0 }.joined(separator: "\n")
          + "\n  Add a step for the change (migrator.registerModels(\"<new step>\", ...)) and"
          + " record its snapshot: \(record). If \"\(step)\" has never shipped, delete its"
          + " file and record it again instead."
      case .unreadable(let file, let reason):
        return "\(file) is not a schema snapshot SwiftLite reads (\(reason)): restore it from"
          + " version control, or delete it and record it again if its step never shipped."
      case .notAModelStep(let step, let file):
        return "\(file) records \"\(step)\", which is not a model step of the migrator: a step"
          + " that shipped must keep its name; remove the file if the step never shipped."
      case .sharedStep(let step, let files):
        return "several files record step \"\(step)\": " + files.joined(separator: ", ")
          + "; keep one."
      case .sharedFileName(let steps, let file):
        return "the model steps " + steps.map { "\"\($0)\"" }.joined(separator: ", ")
          + " would be recorded in the same file \(file): give them names that differ in"
          + " letters or digits."
      }
    }
  }

  /// The problems, in the order found.
  public let problems: [Problem]

  /// Whether nothing is wrong (and nothing was recorded).
  public var passed: Bool { problems.isEmpty }

  /// One paragraph per problem, or a line saying the snapshots are current.
  public var description: String {
    passed
      ? "schema snapshots: every model step recorded, every model current"
      : problems.map { "- " + $0.description }.joined(separator: "\n")
  }
}
