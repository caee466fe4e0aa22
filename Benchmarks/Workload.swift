/// One benchmark: the same work written twice, once with SwiftLite and once directly
/// against the SQLite C API, timed in the same process on the same kind of file database.
///
/// Each side is a closure that does its untimed set-up (open a connection, create a table),
/// then wraps exactly the work to compare in one call to ``Trial/time(_:)``, and returns a
/// checksum of what it read or wrote. The runner checks that both sides agree on the
/// checksum, so a fast but wrong side cannot win.
///
/// To add a workload, write a `static let` of `[Workload]` in an extension of ``Workloads``
/// in a new file (see `CoreWorkloads.swift`) and append it to ``Workloads/all``.
struct Workload: Sendable {
  /// A short, stable name: used by `--only` and as the JSON key.
  let name: String
  /// What is measured, in one line, for the report.
  let summary: String
  /// The ratio SwiftLite / raw C the workload must stay under, if it has one.
  let target: Double?
  /// The SwiftLite side.
  let swiftLite: @Sendable (Trial) throws -> Int64
  /// The raw C side.
  let raw: @Sendable (Trial) throws -> Int64
  /// What a side measures: `"s"` (its time) or `"MB"` (its peak memory, see
  /// ``Trial/record(_:)``).
  var unit = "s"
}

/// The registry of every workload, in report order.
enum Workloads {
  static var all: [Workload] {
    core + models + mapped + mixed + codableFloor + access + memory + query + eager + changesets
      + catalogue + launch
  }
}

/// What one timed run of one side gets: the shared fixtures and a stopwatch.
final class Trial {
  let fixtures: Fixtures
  private(set) var seconds: Double?

  init(fixtures: Fixtures) { self.fixtures = fixtures }

  /// The number of rows the workloads use (`--rows`).
  var rows: Int { fixtures.rows }

  /// Records a measure other than time (a workload whose ``Workload/unit`` is not `"s"`);
  /// call it, or ``time(_:)``, exactly once per side.
  func record(_ value: Double) {
    precondition(seconds == nil, "a workload side must measure exactly once")
    seconds = value
  }

  /// Times `body`; call it exactly once per side. Set-up before it and checks after it
  /// are not timed.
  func time<T>(_ body: () throws -> T) rethrows -> T {
    precondition(seconds == nil, "a workload side must call time(_:) exactly once")
    let clock = ContinuousClock()
    var result: T?
    let start = clock.now
    try timedSection { result = try body() }
    let elapsed = start.duration(to: clock.now)
    seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return result!
  }

  /// Runs the timed part of a side. Never inlined, so that a profiler can count what it
  /// runs and nothing else (`Scripts/profile.sh` counts its instructions with callgrind).
  @inline(never)
  func timedSection(_ body: () throws -> Void) rethrows { try body() }
}
