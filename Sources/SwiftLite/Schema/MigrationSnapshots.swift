import Foundation

/// The recorded shapes of a ``Migrator``'s model steps, one ``SchemaSnapshot`` per step,
/// which a migrator given them applies instead of the models as compiled now.
///
/// ```swift
/// import Foundation
///
/// struct Folder: Model { var id: Int64?; var name: String; static let primaryKey = ["id"] }
/// struct Note: Model { var id: Int64?; var title: String; static let primaryKey = ["id"] }
///
/// // The app ships its snapshots folder as a resource: resources: [.copy("MigrationSnapshots")]
/// let url = Bundle.module.url(forResource: "MigrationSnapshots", withExtension: nil)!
/// var migrator = Migrator(snapshots: try MigrationSnapshots(directory: url))
/// migrator.registerModels("v1-tables", Folder.self, Note.self)
/// ```
///
/// Snapshots are found by the step name each file records, not by the file's name; files
/// that do not end in `.json` are ignored. `SwiftLiteTesting` writes them (see its
/// `MigrationSnapshotCheck`), in a test, when recording is asked for.
///
/// `Sendable` and `Hashable`: a value.
public struct MigrationSnapshots: Sendable, Hashable {
  /// The snapshots by step name.
  public private(set) var byStep: [String: SchemaSnapshot]

  /// The given snapshots.
  /// - Throws: ``MigrationSnapshotError/duplicateStep(_:)`` when two record the same step.
  public init(_ snapshots: [SchemaSnapshot] = []) throws {
    byStep = [:]
    for snapshot in snapshots {
      if byStep.updateValue(snapshot, forKey: snapshot.step) != nil {
        throw MigrationSnapshotError.duplicateStep(snapshot.step)
      }
    }
  }

  /// The snapshots of the `.json` files of a directory (a folder of the source tree, or a
  /// resource folder such as `Bundle.module.url(forResource:withExtension:)` gives). A
  /// directory that does not exist holds no snapshot.
  /// - Throws: ``MigrationSnapshotError/unreadable(file:reason:)`` for a file that is not a
  ///   snapshot, ``MigrationSnapshotError/newerFormat(step:version:supported:)``,
  ///   ``MigrationSnapshotError/duplicateStep(_:)``, and the errors of listing the directory.
  public init(directory: URL) throws {
    let manager = FileManager.default
    guard manager.fileExists(atPath: directory.path) else {
      try self.init()
      return
    }
    let files = try manager.contentsOfDirectory(
      at: directory, includingPropertiesForKeys: nil
    ).filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    var snapshots: [SchemaSnapshot] = []
    for file in files {
      do {
        snapshots.append(try SchemaSnapshot(jsonData: Data(contentsOf: file)))
      } catch let error as MigrationSnapshotError {
        throw error
      } catch {
        throw MigrationSnapshotError.unreadable(file: file.path, reason: "\(error)")
      }
    }
    try self.init(snapshots)
  }

  /// The snapshot of the step `step`, if recorded.
  public subscript(step: String) -> SchemaSnapshot? { byStep[step] }

  /// The step names recorded, sorted.
  public var steps: [String] { byStep.keys.sorted() }

  /// The name of the file that holds the snapshot of `step`: the step name with every
  /// character other than ASCII letters, digits, `-`, `_` and `.` replaced by `-` (runs of
  /// them by one), then `.json`. `"v2: pin notes"` is `v2-pin-notes.json`.
  public static func fileName(forStep step: String) -> String {
    var name = ""
    for scalar in step.unicodeScalars {
      let kept =
        scalar.isASCII
        && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
          || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
      if kept {
        name.unicodeScalars.append(scalar)
      } else if !name.hasSuffix("-") {
        name += "-"
      }
    }
    while name.hasPrefix("-") || name.hasPrefix(".") { name.removeFirst() }
    while name.hasSuffix("-") { name.removeLast() }
    return (name.isEmpty ? "step" : name) + ".json"
  }
}
