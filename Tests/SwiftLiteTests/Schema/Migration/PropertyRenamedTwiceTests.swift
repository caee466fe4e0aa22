import Foundation
import XCTest

@testable import SwiftLite

// A property renamed in two releases: v1 `name`, v2 `fullName`, v3 `displayName`. A file
// of any release opened by v3 keeps its values.

private struct MemberV1: Model, Equatable {
  var id: Int64?
  var name: String
  static let tableName = "Member"
  static let primaryKey = ["id"]
}

private struct MemberV2: Model, Equatable {
  var id: Int64?
  var fullName: String
  static let tableName = "Member"
  static let primaryKey = ["id"]
  static let renamedProperties = ["fullName": "name"]
}

private struct MemberV3: Model, Equatable {
  var id: Int64?
  var displayName: String
  static let tableName = "Member"
  static let primaryKey = ["id"]
  static let renamedProperties = ["displayName": "fullName"]
  static let previousPropertyNames = ["displayName": ["name"]]
}

/// The same history declared in `previousPropertyNames` alone.
private struct MemberV3Listed: Model, Equatable {
  var id: Int64?
  var displayName: String
  static let tableName = "Member"
  static let primaryKey = ["id"]
  static let previousPropertyNames = ["displayName": ["fullName", "name"]]
}

final class PropertyRenamedTwiceTests: ModelTestCase {
  private let names = ["Ann", "Bo", "Cy"]

  func testAFileFromRelease1OpenedByRelease3KeepsItsValues() throws {
    try open().save(names.map { MemberV1(id: nil, name: $0) })
    let plan = try open().migrate(MemberV3.self)
    XCTAssertEqual(plan.changes, ["column name renamed to displayName"])
    let reopened = try open()
    XCTAssertEqual(try reopened.columnNames("Member"), ["id", "displayName"])
    XCTAssertEqual(
      try reopened.findAll(MemberV3.self, orderBy: "id"),
      names.enumerated().map { MemberV3(id: Int64($0.offset + 1), displayName: $0.element) })
    XCTAssertFalse(try reopened.needsMigration(MemberV3.self))
    try assertIntact(reopened)
  }

  func testAFileFromRelease2OpenedByRelease3KeepsItsValues() throws {
    try open().save(names.map { MemberV1(id: nil, name: $0) })
    try open().migrate(MemberV2.self)
    try open().save(MemberV2(id: nil, fullName: "Di"))
    try open().migrate(MemberV3Listed.self)
    XCTAssertEqual(
      try open().findAll(MemberV3Listed.self, orderBy: "id").map(\.displayName),
      names + ["Di"])
  }

  func testAFileFromRelease1OpenedByRelease3ListingEveryNameKeepsItsValues() throws {
    try open().save(names.map { MemberV1(id: nil, name: $0) })
    try open().save(MemberV3Listed(id: nil, displayName: "Di"))
    XCTAssertEqual(
      try open().findAll(MemberV3Listed.self, orderBy: "id").map(\.displayName),
      names + ["Di"])
  }

  func testTheOldNamesAreMergedNewestFirst() {
    XCTAssertEqual(MemberV3.propertyRenames, ["displayName": ["fullName", "name"]])
    XCTAssertEqual(MemberV3Listed.propertyRenames, ["displayName": ["fullName", "name"]])
    XCTAssertEqual(MemberV2.propertyRenames, ["fullName": ["name"]])
  }

  /// Through snapshots: the step's recorded renames list every old name, in a file of
  /// format 2; a step with a single rename stays format 1.
  func testSnapshotsRecordEveryOldName() throws {
    let v2 = try SchemaSnapshot.Table(model: MemberV2.self)
    XCTAssertEqual(SchemaSnapshot(step: "v2", tables: [v2]).formatVersion, 1)
    let v3 = try SchemaSnapshot.Table(model: MemberV3.self)
    XCTAssertEqual(v3.renamedColumns, ["displayName": "fullName"])
    XCTAssertEqual(v3.previousColumnNames, ["displayName": ["name"]])
    let snapshot = SchemaSnapshot(step: "v3", tables: [v3])
    XCTAssertEqual(snapshot.formatVersion, 2)
    XCTAssertEqual(try SchemaSnapshot(jsonData: snapshot.jsonData()), snapshot)

    try open().save(names.map { MemberV1(id: nil, name: $0) })
    try AutoMigration.migrate(to: v3, in: open())
    XCTAssertEqual(
      try open().findAll(MemberV3.self, orderBy: "id").map(\.displayName), names)
  }
}
