import Foundation
import XCTest

@testable import SwiftLite

private struct Guest: Model, Equatable {
  var id: Int64?
  var name: String
  static let primaryKey = ["id"]
}

/// A repository released without closing its database closes the database's connections
/// once the last reference goes.
final class RepositoryReleaseTests: TemporaryDirectoryTestCase {
  private var fastOptions: OpenOptions {
    var options = OpenOptions()
    options.connectionSetup = { db in try db.execute("PRAGMA synchronous = OFF") }
    return options
  }

  func testARepositoryOverAQueueReleasedAfterCreateClosesItsConnection() throws {
    let file = path("queue.sqlite")
    let options = fastOptions
    try assertDescriptorsAndMemoryStayFlat {
      let guests = try Repository<Guest>(DatabaseQueue(path: file, options: options))
      try guests.create(Guest(id: nil, name: "Ann"))
    }
  }

  func testARepositoryOverAPoolReleasedAfterSaveClosesEveryConnection() throws {
    let file = path("pool.sqlite")
    let options = fastOptions
    try assertDescriptorsAndMemoryStayFlat {
      let guests = try Repository<Guest>(DatabasePool(path: file, options: options))
      try guests.save(Guest(id: 1, name: "Ann"))
      XCTAssertEqual(try guests.findById(1)?.name, "Ann")
    }
  }
}
