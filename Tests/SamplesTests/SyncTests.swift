import Foundation
import SwiftLite
import SyncSample
import XCTest

final class SyncTests: TemporaryDirectoryTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try XCTSkipUnless(Connection.isSessionExtensionAvailable, "no session extension here")
  }

  func testTheDemoEndsWithEqualCopies() throws {
    var lines: [String] = []
    try SyncDemo(directory: directory, output: { lines.append($0) }).run()
    XCTAssertEqual(lines.first, "after the first exchange, both have 3 notes")
    XCTAssertTrue(lines.contains("  Groceries: milk, bread  (phone at 2000)"), "\(lines)")
    XCTAssertTrue(lines.contains("  Trip: book the train and the hotel  (phone at 2200)"))
    XCTAssertFalse(lines.contains { $0.contains("dentist") }, "the later delete won")
    XCTAssertEqual(lines.last, "both copies are equal")
  }

  func testTheExecutablePrintsBothCopiesEqual() throws {
    let output = try runSample("Sync")
    XCTAssertTrue(output.hasSuffix("both copies are equal\n"), output)
  }

  /// Two copies, 1,000 random edits each (creates, edits, deletes) over 20 exchanges, on
  /// clocks that often read the same: both end identical, row for row as `quote()` gives
  /// them, and equal to what the policy predicts: per note, the greatest version made.
  func testTwoCopiesConvergeToWhatThePolicyPredicts() throws {
    let clock = TestClock()
    let devices = try ["device-a", "device-b"].map { id in
      try SyncDevice(
        path: directory.appendingPathComponent(id + ".sqlite").path, id: id,
        clock: { clock.now })
    }
    let transport = try FolderTransport(folder: directory.appendingPathComponent("exchange"))
    var random = SplitMix64(seed: 2026)
    var made: [String: [SyncNote]] = [:]
    for round in 0..<20 {
      for step in 0..<100 {
        let device = devices[step % 2]
        // Three possible times per round: the two devices tie often.
        clock.now = Int64(round * 10) + Int64(random.next() % 3)
        let live = try device.notes()
        let choice = live.isEmpty ? 0 : random.next() % 10
        let note: SyncNote?
        switch choice {
        case 0..<4:
          note = try device.create("note \(round)-\(step)")
        case 4..<8:
          let target = live[Int(random.next() % UInt64(live.count))]
          note = try device.edit(target.id, body: "edit \(round)-\(step) by \(device.id)")
        default:
          let target = live[Int(random.next() % UInt64(live.count))]
          note = try device.delete(target.id)
        }
        if let note { made[note.id, default: []].append(note) }
      }
      for device in devices { try transport.send(from: device) }
      for device in devices { try transport.receive(into: device) }
    }
    XCTAssertEqual(made.values.reduce(0) { $0 + $1.count }, 2_000)

    let expected = try Connection.inMemory()
    try expected.createTable(for: SyncNote.self)
    try expected.save(made.values.map { $0.max { $0.version < $1.version }! })
    let predicted = try SyncDevice.quotedRows(expected)
    let first = try devices[0].quotedRows()
    let second = try devices[1].quotedRows()
    XCTAssertTrue(first == second, "both copies are identical: \(differences(first, second))")
    XCTAssertTrue(
      first == predicted,
      "and hold the greatest version of every note: \(differences(first, predicted))")
    XCTAssertGreaterThan(predicted.count, 100)

    // The run met what the policy must settle: the same note edited by both devices at the
    // same time, and deletes that lost to later edits or won over earlier ones.
    let ties = made.values.filter { versions in
      Set(versions.map(\.updatedAt)).contains { time in
        Set(versions.filter { $0.updatedAt == time }.map(\.deviceID)).count == 2
      }
    }
    XCTAssertGreaterThan(ties.count, 0, "timestamp ties between devices")
    let winners = made.values.map { $0.max { $0.version < $1.version }! }
    XCTAssertTrue(winners.contains { $0.isDeleted })
    XCTAssertTrue(
      made.values.contains { versions in
        versions.contains(where: \.isDeleted)
          && !versions.max { $0.version < $1.version }!.isDeleted
      }, "a delete that lost")
  }
}

/// How two lists of rows differ, briefly.
private func differences(_ left: [String], _ right: [String]) -> String {
  let onlyLeft = Set(left).subtracting(right)
  let onlyRight = Set(right).subtracting(left)
  return "\(left.count) vs \(right.count) rows; \(onlyLeft.count) only in the first, e.g. "
    + "\(onlyLeft.sorted().prefix(2)); \(onlyRight.count) only in the second, e.g. "
    + "\(onlyRight.sorted().prefix(2))"
}

/// A clock the test sets; read from the devices' queues.
private final class TestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Int64 = 0
  var now: Int64 {
    get { lock.withLock { value } }
    set { lock.withLock { value = newValue } }
  }
}

/// A small deterministic random number generator (SplitMix64).
private struct SplitMix64 {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
