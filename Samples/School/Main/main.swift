import Foundation
import SchoolSample

// Usage: swift run School [directory]
let directory = CommandLine.arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath
do {
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let path = URL(fileURLWithPath: directory).appendingPathComponent("School.sqlite").path
  try SchoolDemo(path: path).run()
} catch {
  print("School failed: \(error)")
  exit(1)
}
