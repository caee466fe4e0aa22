import Foundation
import SwiftLite
import Synchronization

/// Two devices edit their notes offline, exchange changesets through a folder in both
/// directions, and end with the same rows.
public struct SyncDemo {
  let directory: URL
  let output: (String) -> Void

  /// A demo writing its files (two databases, the exchange folder) in `directory`.
  /// - Parameters:
  ///   - directory: where the files go.
  ///   - output: receives each line it prints; standard output by default.
  public init(directory: URL, output: @escaping (String) -> Void = { print($0) }) {
    self.directory = directory
    self.output = output
  }

  /// Runs the demo and prints what happens.
  /// - Throws: `SQLiteError`, `ChangesetError`, the file system's error.
  public func run() throws {
    let manager = FileManager.default
    for name in ["laptop.sqlite", "phone.sqlite", "exchange"] {
      try? manager.removeItem(at: directory.appendingPathComponent(name))
    }
    // One clock for both devices, set by the demo, so that the story is the same on every
    // run (real devices read their own wall clocks).
    let now = Atomic<Int64>(1_000)
    let clock: @Sendable () -> Int64 = { now.load(ordering: .relaxed) }
    let laptop = try SyncDevice(
      path: directory.appendingPathComponent("laptop.sqlite").path, id: "laptop", clock: clock)
    let phone = try SyncDevice(
      path: directory.appendingPathComponent("phone.sqlite").path, id: "phone", clock: clock)
    let transport = try FolderTransport(folder: directory.appendingPathComponent("exchange"))

    let groceries = try laptop.create("Groceries: milk")
    let trip = try laptop.create("Trip: book the train")
    let dentist = try phone.create("Call the dentist")
    try exchange(laptop, phone, transport)
    output("after the first exchange, both have \(try laptop.notes().count) notes")

    // Offline, both edit the grocery list at the same time: the larger id, "phone", wins.
    now.store(2_000, ordering: .relaxed)
    try laptop.edit(groceries.id, body: "Groceries: milk, eggs")
    try phone.edit(groceries.id, body: "Groceries: milk, bread")
    // The laptop deletes the trip, the phone edits it later: the later edit wins.
    now.store(2_100, ordering: .relaxed)
    try laptop.delete(trip.id)
    now.store(2_200, ordering: .relaxed)
    try phone.edit(trip.id, body: "Trip: book the train and the hotel")
    // The laptop edits the dentist note, the phone deletes it later: the delete wins.
    now.store(2_250, ordering: .relaxed)
    try laptop.edit(dentist.id, body: "Call the dentist before noon")
    now.store(2_300, ordering: .relaxed)
    try phone.delete(dentist.id)
    try exchange(laptop, phone, transport)

    for device in [laptop, phone] {
      output("\(device.id):")
      for note in try device.notes() {
        output("  \(note.body)  (\(note.deviceID) at \(note.updatedAt))")
      }
    }
    let equal = try laptop.quotedRows() == phone.quotedRows()
    output(equal ? "both copies are equal" : "the copies differ")
    if !equal { throw SyncDemoError.copiesDiffer }
  }

  /// Both devices send, then both receive.
  private func exchange(_ a: SyncDevice, _ b: SyncDevice, _ transport: FolderTransport) throws {
    try transport.send(from: a)
    try transport.send(from: b)
    try transport.receive(into: a)
    try transport.receive(into: b)
  }
}

/// The demo's own failure.
enum SyncDemoError: Error {
  /// The copies did not converge.
  case copiesDiffer
}
