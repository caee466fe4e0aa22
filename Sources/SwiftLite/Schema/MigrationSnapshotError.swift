import Foundation

/// Why schema snapshots could not be read or a ``Migrator`` given snapshots refused to run.
/// Thrown before anything is written.
///
/// `Sendable` and `Hashable`: a value.
public enum MigrationSnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The migrator was given snapshots, and these model steps have none, in registration
  /// order. Nothing was run.
  case missingSnapshots([String])
  /// These models (table name -> the last step that registers it) no longer have the shape
  /// recorded for that step: they changed without a new step
  /// (``Migrator/checkSnapshots()``).
  case modelsChanged([String: String])
  /// A file in a snapshot directory is not a snapshot this version of SwiftLite reads.
  case unreadable(file: String, reason: String)
  /// A snapshot was written in a format newer than this version of SwiftLite reads.
  case newerFormat(step: String, version: Int, supported: Int)
  /// Two snapshots record the same step.
  case duplicateStep(String)

  /// A sentence saying what is wrong and what to do.
  public var description: String {
    switch self {
    case .missingSnapshots(let steps):
      return "no schema snapshot for the model step"
        + (steps.count == 1 ? " " : "s ") + steps.map { "\"\($0)\"" }.joined(separator: ", ")
        + ": record them in a test with SwiftLiteTesting's MigrationSnapshotCheck"
        + " (SWIFTLITE_RECORD_SNAPSHOTS=1), commit the files and ship them as a resource"
    case .modelsChanged(let changed):
      return "these models changed since the snapshot of the last step that registers them: "
        + changed.keys.sorted().map { "\($0) (step \"\(changed[$0] ?? "")\")" }
        .joined(separator: ", ")
        + ". Add a model step for the change and record its snapshot in a test with"
        + " SwiftLiteTesting's MigrationSnapshotCheck (SWIFTLITE_RECORD_SNAPSHOTS=1); a step"
        + " that has never shipped may be recorded again instead (delete its file)"
    case .unreadable(let file, let reason):
      return "\(file) is not a schema snapshot: \(reason)"
    case .newerFormat(let step, let version, let supported):
      return "the snapshot of step \"\(step)\" is in format \(version), and this version of"
        + " SwiftLite reads formats up to \(supported): it was written by a newer SwiftLite"
    case .duplicateStep(let step):
      return "two schema snapshots record the step \"\(step)\"; keep one"
    }
  }
}

extension MigrationSnapshotError: LocalizedError {
  /// The same text as `description`.
  public var errorDescription: String? { description }
}
