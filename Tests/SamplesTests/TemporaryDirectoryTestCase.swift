import Foundation
import XCTest

/// A test case that gets a fresh, empty directory per test, removed at tear-down.
class TemporaryDirectoryTestCase: XCTestCase {
  /// The directory of the running test.
  var directory: URL!

  override func setUpWithError() throws {
    try super.setUpWithError()
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("SamplesTests-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    if let directory { try? FileManager.default.removeItem(at: directory) }
    directory = nil
    try super.tearDownWithError()
  }

  /// Runs a sample's executable (built next to the test bundle) in `directory`, with the
  /// directory as its argument, and returns its standard output. Skips the test when the
  /// executable was not built.
  func runSample(_ name: String) throws -> String {
    // The test bundle: `debug/X.xctest` on Apple platforms; on Linux, `bundleURL` is the
    // directory holding the test executable, `debug/` itself.
    let bundle = Bundle(for: Self.self).bundleURL
    let productsDirectory =
      bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    let executable = productsDirectory.appendingPathComponent(name)
    guard FileManager.default.isExecutableFile(atPath: executable.path) else {
      throw XCTSkip("\(name) is not built at \(executable.path)")
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = [directory.path]
    process.currentDirectoryURL = directory
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "\(name) failed")
    return String(decoding: data, as: UTF8.self)
  }
}
