import Foundation
import SwiftLite

/// Carries changesets between devices through a folder (a shared drive, a synced
/// directory, a USB stick): any transport that carries bytes would do.
///
/// Each device writes its changesets as numbered files into a subfolder named after it
/// (`<folder>/<device>/000001.changeset`), written to a temporary name first and then
/// renamed, so a reader never sees half a file. A device reads the other devices'
/// subfolders and remembers, in a file of its own, the last number it applied from each.
public struct FolderTransport: Sendable {
  /// The shared folder.
  public let folder: URL

  /// A transport through `folder`, created when missing.
  /// - Throws: the file system's error.
  public init(folder: URL) throws {
    self.folder = folder
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// Sends what the device edited since its last send; nothing when it edited nothing.
  /// - Returns: whether a file was written.
  /// - Throws: `SQLiteError`, `ChangesetError`, the file system's error.
  @discardableResult
  public func send(from device: SyncDevice) throws -> Bool {
    let changeset = try device.outgoing()
    guard !changeset.isEmpty else { return false }
    let outbox = folder.appendingPathComponent(device.id, isDirectory: true)
    try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
    let next = (try numbers(in: outbox).last ?? 0) + 1
    let name = String(format: "%06d.changeset", next)
    let temporary = outbox.appendingPathComponent("." + name)
    try changeset.data.write(to: temporary)
    try FileManager.default.moveItem(at: temporary, to: outbox.appendingPathComponent(name))
    return true
  }

  /// Applies, in order, every changeset of the other devices that this device has not
  /// applied yet.
  /// - Returns: the number of changesets applied.
  /// - Throws: as ``SyncDevice/receive(_:)``; the file system's error. The changesets
  ///   applied before the failure stay applied and remembered.
  @discardableResult
  public func receive(into device: SyncDevice) throws -> Int {
    let manager = FileManager.default
    var applied = 0
    let senders = try manager.contentsOfDirectory(atPath: folder.path).filter {
      !$0.hasPrefix(".") && $0 != device.id
    }.sorted()
    for sender in senders {
      let inbox = folder.appendingPathComponent(sender, isDirectory: true)
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: inbox.path, isDirectory: &isDirectory), isDirectory.boolValue
      else { continue }
      let marker = folder.appendingPathComponent(".\(device.id)-read-\(sender)")
      let last = (try? String(contentsOf: marker, encoding: .utf8)).flatMap { Int($0) } ?? 0
      for number in try numbers(in: inbox) where number > last {
        let file = inbox.appendingPathComponent(String(format: "%06d.changeset", number))
        try device.receive(Changeset(data: try Data(contentsOf: file)))
        try String(number).write(to: marker, atomically: true, encoding: .utf8)
        applied += 1
      }
    }
    return applied
  }

  /// The numbers of the changeset files in a folder, in order.
  private func numbers(in outbox: URL) throws -> [Int] {
    guard FileManager.default.fileExists(atPath: outbox.path) else { return [] }
    return try FileManager.default.contentsOfDirectory(atPath: outbox.path)
      .filter { $0.hasSuffix(".changeset") && !$0.hasPrefix(".") }
      .compactMap { Int($0.dropLast(".changeset".count)) }.sorted()
  }
}
