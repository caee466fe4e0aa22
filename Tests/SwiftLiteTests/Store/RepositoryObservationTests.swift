import Foundation
import XCTest

@testable import SwiftLite

private struct Member: Model, Equatable, Sendable {
  var id: Int64?
  var name: String
  static let primaryKey = ["id"]
}

final class RepositoryObservationTests: TemporaryDirectoryTestCase {
  func testObserveAllAndObserveIDFollowCommits() async throws {
    let queue = try DatabaseQueue(path: path())
    let members = try Repository<Member>(queue)
    var all = members.observeAll(orderBy: "name").makeAsyncIterator()
    var one = try members.observe(id: 1).makeAsyncIterator()
    let firstAll = try await all.next()
    let firstOne = try await one.next()
    XCTAssertEqual(firstAll, [])
    XCTAssertEqual(firstOne, .some(nil))

    try await members.save(Member(id: 1, name: "Zed"))
    let secondAll = try await all.next()
    let secondOne = try await one.next()
    XCTAssertEqual(secondAll, [Member(id: 1, name: "Zed")])
    XCTAssertEqual(secondOne, Member(id: 1, name: "Zed"))

    try await members.save(Member(id: 2, name: "Amy"))
    let thirdAll = try await all.next()
    XCTAssertEqual(thirdAll?.map(\.name), ["Amy", "Zed"])
    try await members.remove(1)
    let thirdOne = try await one.next()
    // The row of id 1 is gone; the insert of id 2 may or may not have been seen first.
    if thirdOne != .some(nil) {
      let fourthOne = try await one.next()
      XCTAssertEqual(fourthOne, .some(nil))
    }
    try queue.close()
  }

  func testAPoolRepositoryObservesToo() async throws {
    let pool = try DatabasePool(path: path("pool.sqlite"))
    let members = try Repository<Member>(pool)
    var all = members.observeAll().makeAsyncIterator()
    let first = try await all.next()
    XCTAssertEqual(first, [])
    try await members.create(Member(id: nil, name: "Ann"))
    let second = try await all.next()
    XCTAssertEqual(second?.map(\.name), ["Ann"])
    try pool.close()
  }
}
