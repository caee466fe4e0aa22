import Foundation
import PowerLossVFS
import XCTest

@testable import SwiftLite

/// Backups put in place under power loss, observed rather than modeled: for the power-loss
/// VFS, the backup's rename of its copy and its sync of the folder go through the harness
/// (`BackupPlacement` replaced), so cuts fall on them as on SQLite's own writes and syncs,
/// and a rename that no directory sync made durable is undone at the power loss.
final class PowerLossBackupTests: TemporaryDirectoryTestCase {
  /// The run whose cut points start at the backup's rename, for the scenarios cut only
  /// there; set and read on the test's thread only (the backups run synchronously).
  nonisolated(unsafe) private static var runCutFromTheRename: PowerLossRun?

  /// Cuts whose restore undid the backup's rename, over one scenario.
  private final class Count { var value = 0 }

  /// The harness's calls, with or without the directory sync (without: what a backup did
  /// before it synced its folder).
  private static func observed(syncingTheDirectory: Bool) -> BackupPlacement {
    BackupPlacement(
      rename: { from, to in
        runCutFromTheRename?.markCutsStart()
        return powerloss_rename_event(from, to)
      },
      syncDirectory: { directory in
        syncingTheDirectory ? powerloss_sync_directory_event(directory) : 0
      })
  }

  override func setUpWithError() throws {
    try super.setUpWithError()
    BackupPlacement.replace(
      forVFS: PowerLoss.vfsName, with: Self.observed(syncingTheDirectory: true))
  }

  override func tearDownWithError() throws {
    BackupPlacement.replace(forVFS: PowerLoss.vfsName, with: nil)
    Self.runCutFromTheRename = nil
    try super.tearDownWithError()
  }

  /// A backup of a 30-transaction ledger (`source.sqlite`) over an older 5-transaction one
  /// at `backup.sqlite`: the file there is always one of the two, whole, and the new one
  /// once `backup` returned with the power on. `undone` counts the cuts that undid the rename.
  private func backupScenario(
    _ name: String, sourceInWAL: Bool = false, cutsFromTheRename: Bool = false,
    expectsViolations: Bool = false, undone: Count,
    backup: @escaping (_ source: String, _ target: String) throws -> Void
  ) -> PowerLossScenario {
    PowerLossScenario(
      name: name, cutsAfterTheEnd: true, files: ["source.sqlite", "backup.sqlite"],
      expectsViolations: expectsViolations,
      prepare: { folder in
        for (name, count) in [("source.sqlite", 30), ("backup.sqlite", 5)] {
          let db = try Connection(path: folder.appendingPathComponent(name).path)
          try PowerLossTests.createLedger(db)
          for k in 1...count { try PowerLossTests.insert(k, into: db) }
          if sourceInWAL && name == "source.sqlite" { try db.setJournalMode(.wal) }
          try db.close()
        }
      },
      run: { run in
        Self.runCutFromTheRename = cutsFromTheRename ? run : nil
        defer { Self.runCutFromTheRename = nil }
        // Once the backup returned with the power on, the new copy must survive.
        try run.transaction(durable: true) {
          try backup(run.path("source.sqlite"), run.path("backup.sqlite"))
        }
      },
      check: { run in
        undone.value += Int(powerloss_renames_undone())
        let kept = try PowerLossTests.keptTransactions(run.path("backup.sqlite"))
        XCTAssertTrue([5, 30].contains(kept), "the backup holds \(kept) transactions")
        XCTAssertEqual(try PowerLossTests.keptTransactions(run.path("source.sqlite")), 30)
        return kept == 30 ? 1 : 0
      })
  }

  private static func connectionBackup(_ source: String, _ target: String) throws {
    let db = try Connection(path: source, options: PowerLoss.options)
    defer { try? db.close() }
    try db.backup(toPath: target, pagesPerStep: 3)
  }

  private func report(_ figures: PowerLossFigures, _ undone: Count) {
    print(
      "power loss: \(figures.scenario): \(undone.value) of \(figures.cuts) cuts undid the rename")
  }

  func testABackupIsTheOldOrTheNewFileWholeAndTheNewOnceItReturned() throws {
    let undone = Count()
    let figures = try measure(
      backupScenario(
        "backup(toPath:) over an older backup", undone: undone, backup: Self.connectionBackup))
    report(figures, undone)
    XCTAssertEqual(figures.intact, figures.cuts)
    XCTAssertEqual(figures.violations, 0)
  }

  /// Cuts at the rename (it does not happen), at the directory sync (the rename happened
  /// but is not durable: undone) and after the backup returned (the new file stays).
  func testACutBeforeTheDirectorySyncUndoesTheRenameAndAfterItKeepsTheNewBackup() throws {
    let undone = Count()
    let figures = try measure(
      backupScenario(
        "backup(toPath:), cuts at the rename, the directory sync and after",
        cutsFromTheRename: true, undone: undone, backup: Self.connectionBackup))
    report(figures, undone)
    XCTAssertEqual(figures.intact, figures.cuts)
    XCTAssertEqual(figures.violations, 0)
    XCTAssertGreaterThan(undone.value, 0, "no cut fell between the rename and the sync")
    XCTAssertGreaterThan(figures.kept, 0, "no cut fell after the backup returned")
  }

  /// The control: without the directory sync (as backups were before it), a backup that
  /// returned is lost when the power goes right after; the harness sees it.
  func testWithoutTheDirectorySyncAReturnedBackupIsLostAtThePowerLoss() throws {
    BackupPlacement.replace(
      forVFS: PowerLoss.vfsName, with: Self.observed(syncingTheDirectory: false))
    let undone = Count()
    let figures = try measure(
      backupScenario(
        "backup(toPath:) without the directory sync (control), cuts from the rename",
        cutsFromTheRename: true, expectsViolations: true, undone: undone,
        backup: Self.connectionBackup))
    report(figures, undone)
    XCTAssertEqual(figures.intact, figures.cuts)
    XCTAssertGreaterThan(figures.violations, 0, "the harness did not see the lost rename")
    XCTAssertGreaterThan(undone.value, 0)
  }

  func testAPoolsBackupOfAWALDatabaseSurvivesOnceItReturned() throws {
    let undone = Count()
    let figures = try measure(
      backupScenario(
        "DatabasePool.backup(toPath:) of a WAL database", sourceInWAL: true, undone: undone
      ) { source, target in
        let pool = try DatabasePool(path: source, options: PowerLoss.options)
        defer { try? pool.close() }
        try pool.backup(toPath: target, pagesPerStep: 3)
      })
    report(figures, undone)
    XCTAssertEqual(figures.intact, figures.cuts)
    XCTAssertEqual(figures.violations, 0)
  }

  // MARK: Errors

  func testAFailedDirectorySyncIsATypedErrorWithTheNewFileInPlace() throws {
    powerloss_begin(1)
    BackupPlacement.replace(
      forVFS: PowerLoss.vfsName,
      with: BackupPlacement(rename: BackupPlacement.system.rename, syncDirectory: { _ in EIO }))
    let source = try Connection(path: path("source.sqlite"), options: PowerLoss.options)
    defer { try? source.close() }
    try PowerLossTests.createLedger(source)
    try PowerLossTests.insert(1, into: source)
    XCTAssertThrowsError(try source.backup(toPath: path("backup.sqlite"))) { error in
      XCTAssertEqual((error as? SQLiteError)?.extendedCode.rawValue, 1290, "\(error)")
      XCTAssertEqual((error as? SQLiteError)?.code, .ioError)
    }
    XCTAssertEqual(try PowerLossTests.keptTransactions(path("backup.sqlite")), 1)
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    XCTAssertEqual(left.filter { $0.contains(".bk") }, [], "a temporary file was left")
  }

  func testAFailedRenameLeavesTheOldFileAndNoTemporaryOne() throws {
    powerloss_begin(1)
    BackupPlacement.replace(
      forVFS: PowerLoss.vfsName,
      with: BackupPlacement(rename: { _, _ in EACCES }, syncDirectory: { _ in 0 }))
    let old = try Connection(path: path("backup.sqlite"))
    try PowerLossTests.createLedger(old)
    try old.close()
    let source = try Connection(path: path("source.sqlite"), options: PowerLoss.options)
    defer { try? source.close() }
    try PowerLossTests.createLedger(source)
    try PowerLossTests.insert(1, into: source)
    XCTAssertThrowsError(try source.backup(toPath: path("backup.sqlite"))) { error in
      XCTAssertEqual((error as? POSIXError)?.code, .EACCES, "\(error)")
    }
    XCTAssertEqual(try PowerLossTests.keptTransactions(path("backup.sqlite")), 0)
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    XCTAssertEqual(left.filter { $0.contains(".bk") }, [], "a temporary file was left")
  }

  func testTheSystemsDirectorySyncSucceedsOnAFolderAndReportsAMissingOne() {
    XCTAssertEqual(BackupPlacement.system.syncDirectory(directory.path), 0)
    XCTAssertEqual(BackupPlacement.system.syncDirectory(path("missing")), ENOENT)
    XCTAssertEqual(BackupPlacement.directory(of: "backup.sqlite"), ".")
    XCTAssertEqual(BackupPlacement.directory(of: "/a/b/backup.sqlite"), "/a/b")
  }
}
