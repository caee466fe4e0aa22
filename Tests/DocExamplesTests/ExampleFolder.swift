import Foundation
import XCTest

/// Runs a documentation example twice in a fresh, empty folder that is the current
/// directory meanwhile, so the example's relative paths (`app.sqlite`) land there; the
/// folder is removed afterwards. The second run proves the example runs again over what
/// the first one left, as a user who runs it twice would see.
func runTwiceInFreshFolder(_ example: () async throws -> Void) async throws {
  let fileManager = FileManager.default
  let folder = fileManager.temporaryDirectory.appendingPathComponent(
    "swiftlite-doc-example-\(UUID().uuidString)")
  try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
  let previous = fileManager.currentDirectoryPath
  XCTAssertTrue(fileManager.changeCurrentDirectoryPath(folder.path))
  defer {
    _ = fileManager.changeCurrentDirectoryPath(previous)
    try? fileManager.removeItem(at: folder)
  }
  try await example()
  try await example()
}
