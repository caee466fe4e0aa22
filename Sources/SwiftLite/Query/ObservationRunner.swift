import Dispatch
import Synchronization

/// How many observation runners exist now: a test's way to see that cancelled
/// observations are freed.
enum ObservationCounter {
  static let live = Atomic<Int>(0)
}

/// The engine of one observation: fetches a value now, then again after each committed
/// write that changed a table the last fetch read, one fetch at a time.
///
/// Commits that arrive while a fetch runs are coalesced into one more fetch: a burst of
/// writes costs at most two fetches, and the last value always reflects the last commit.
/// `Sendable`: its state is behind a mutex. The fetches run in a task that waits for the
/// connection suspended (no thread held), the fetch itself on the connection's own thread.
final class ObservationRunner<Value: Sendable>: Sendable {
  private let database: any DatabaseAccess
  private let fetch: @Sendable (Connection) throws -> Value
  private let onValue: @Sendable (Value) -> Void
  private let onError: @Sendable (any Error) -> Void
  private let state = Mutex(State())

  private struct State {
    var listenerID: UInt64?
    /// The tables the last fetch read; `nil` before the first one ends.
    var tables: Set<String>?
    var isFetching = false
    var needsFetch = false
    var isCancelled = false
    /// The task fetching now, cancelled with the observation.
    var task: Task<Void, Never>?
  }

  init(
    database: any DatabaseAccess, fetch: @escaping @Sendable (Connection) throws -> Value,
    onValue: @escaping @Sendable (Value) -> Void, onError: @escaping @Sendable (any Error) -> Void
  ) {
    self.database = database
    self.fetch = fetch
    self.onValue = onValue
    self.onError = onError
    ObservationCounter.live.add(1, ordering: .relaxed)
  }

  deinit { ObservationCounter.live.subtract(1, ordering: .relaxed) }

  /// Listens to commits, then fetches the first value in a task; waits for nothing. The
  /// first fetch comes after change tracking is on (see ``run()``), so no commit can fall
  /// between the first fetch and the listening.
  func start() {
    let id: UInt64
    do {
      id = try database.addCommitListenerWithoutTracking { [weak self] changes in
        self?.changed(changes)
      }
    } catch {
      fail(error)
      return
    }
    let cancelled = state.withLock { state in
      state.listenerID = id
      state.isFetching = !state.isCancelled
      return state.isCancelled
    }
    if cancelled {
      database.removeCommitListener(id)
      return
    }
    schedule()
  }

  /// Stops the observation: no value is delivered after it returns, except one being
  /// delivered at that moment. Safe from any thread; cancelling again does nothing.
  func cancel() {
    let id = state.withLock { state in
      state.isCancelled = true
      defer {
        state.listenerID = nil
        state.task?.cancel()
        state.task = nil
      }
      return state.listenerID
    }
    if let id { database.removeCommitListener(id) }
  }

  /// A commit made `changes`: fetch again when the value depends on them.
  private func changed(_ changes: CommittedChanges) {
    let fetchNow = state.withLock { state -> Bool in
      guard !state.isCancelled else { return false }
      if let read = state.tables, !changes.affects(read) { return false }
      if state.isFetching {
        state.needsFetch = true
        return false
      }
      state.isFetching = true
      return true
    }
    if fetchNow { schedule() }
  }

  /// Starts the fetching task; the caller set `isFetching`, so only one runs at a time.
  private func schedule() {
    let task = Task { await self.run() }
    let cancelled = state.withLock { state -> Bool in
      if state.isCancelled { return true }
      // A task that ended already (isFetching is false again) needs no handle.
      if state.isFetching { state.task = task }
      return false
    }
    if cancelled { task.cancel() }
  }

  /// Fetches until no commit asked for another fetch meanwhile. The first run of the first
  /// listener of a queue or pool turns the writer's change tracking on before it fetches,
  /// suspended while the writer is busy: a commit that ends before tracking is on is not
  /// reported, and the fetch after it sees it.
  private func run() async {
    while true {
      if state.withLock({ $0.isCancelled }) { return }
      let result: Result<(Value, Set<String>), any Error>
      do {
        try await database.turnOnChangeTracking()
        // Commits of other connections and processes are reported first (to every
        // listener): the read below sees them, and those reported up to here need no
        // fetch after it.
        try await database.noticeOtherConnectionsCommits()
        state.withLock { $0.needsFetch = false }
        let fetch = self.fetch
        result = .success(
          try await database.read { db in try db.recordingTablesRead { try fetch(db) } })
      } catch {
        result = .failure(error)
      }
      switch result {
      case .success(let (value, tables)):
        let deliver = state.withLock { state -> Bool in
          state.tables = tables
          return !state.isCancelled
        }
        if deliver { onValue(value) }
      case .failure(let error):
        fail(error)
        return
      }
      let again = state.withLock { state -> Bool in
        if state.needsFetch && !state.isCancelled {
          state.needsFetch = false
          return true
        }
        state.isFetching = false
        return false
      }
      if !again { return }
    }
  }

  private func fail(_ error: any Error) {
    let wasCancelled = state.withLock { $0.isCancelled }
    cancel()
    if !wasCancelled { onError(error) }
  }
}
