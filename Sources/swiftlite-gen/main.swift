// swiftlite-gen: prints Swift models for the tables of an existing database.
//
//   swift run swiftlite-gen <database file or .sql script> [tables...] > Models.swift

import Foundation
import SwiftLiteCodeGen

let arguments = Array(CommandLine.arguments.dropFirst())
guard let path = arguments.first, !path.hasPrefix("-") else {
  FileHandle.standardError.write(
    Data(
      """
      usage: swiftlite-gen <database file or .sql script> [tables...]

      Prints one Swift struct per table (all tables when none are named), conforming to
      Model as a mapped table and to RowMapped, to standard output.

      """.utf8))
  exit(arguments.isEmpty || arguments.first == "-h" || arguments.first == "--help" ? 0 : 64)
}
do {
  print(try ModelGenerator(path: path).source(tables: Array(arguments.dropFirst())), terminator: "")
} catch {
  FileHandle.standardError.write(Data("swiftlite-gen: \(error)\n".utf8))
  exit(1)
}
