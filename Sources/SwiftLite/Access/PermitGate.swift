import Dispatch
import Synchronization

/// A fixed number of permits that threads and tasks wait for, served in arrival order: a
/// thread blocks in ``wait()``, a task suspends in ``acquire()`` without holding a thread.
///
/// The permits of a ``DatabasePool``'s readers: a read holds one from checkout to checkin.
/// `Sendable`: its state is behind a mutex.
final class PermitGate: Sendable {
  private enum Waiter {
    case thread(DispatchSemaphore)
    case task(CheckedContinuation<Void, any Error>)
  }

  private struct State {
    var available: Int
    /// Who waits, first come first served: each one is handed a permit by ``release()``.
    var waiters: [(id: UInt64, waiter: Waiter)] = []
    var nextID: UInt64 = 0
    /// Tasks between the start of ``acquire()`` and their turn in the line (or their
    /// permit): a cancellation that comes then is noted in ``cancelled``.
    var arriving: Set<UInt64> = []
    var cancelled: Set<UInt64> = []
  }

  private let state: Mutex<State>

  init(permits: Int) {
    state = Mutex(State(available: permits))
  }

  /// How many threads and tasks wait for a permit now.
  var waiterCount: Int { state.withLock { $0.waiters.count } }

  /// Takes a permit, blocking the calling thread until one is free.
  func wait() {
    let semaphore = state.withLock { state -> DispatchSemaphore? in
      if state.available > 0 && state.waiters.isEmpty {
        state.available -= 1
        return nil
      }
      let semaphore = DispatchSemaphore(value: 0)
      state.nextID += 1
      state.waiters.append((state.nextID, .thread(semaphore)))
      return semaphore
    }
    semaphore?.wait()
  }

  /// Takes a permit, suspending the task until one is free.
  /// - Throws: `CancellationError` when the task is cancelled before it got a permit (it
  ///   holds none then).
  func acquire() async throws {
    try Task.checkCancellation()
    let id = state.withLock { state -> UInt64? in
      if state.available > 0 && state.waiters.isEmpty {
        state.available -= 1
        return nil
      }
      state.nextID += 1
      state.arriving.insert(state.nextID)
      return state.nextID
    }
    guard let id else { return }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let granted = state.withLock { state -> Result<Void, any Error>? in
          state.arriving.remove(id)
          if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
          // A permit may have come back meanwhile.
          if state.available > 0 && state.waiters.isEmpty {
            state.available -= 1
            return .success(())
          }
          state.waiters.append((id, .task(continuation)))
          return nil
        }
        if let granted { continuation.resume(with: granted) }
      }
    } onCancel: {
      let waiting = state.withLock { state -> CheckedContinuation<Void, any Error>? in
        if let index = state.waiters.firstIndex(where: { $0.id == id }) {
          guard case .task(let continuation) = state.waiters.remove(at: index).waiter else {
            return nil
          }
          return continuation
        }
        // Not in line yet: it will find the note. Already served: the permit is its own.
        if state.arriving.contains(id) { state.cancelled.insert(id) }
        return nil
      }
      waiting?.resume(throwing: CancellationError())
    }
  }

  /// Gives a permit back: to the first waiter, if any.
  func release() {
    let next = state.withLock { state -> Waiter? in
      if state.waiters.isEmpty {
        state.available += 1
        return nil
      }
      return state.waiters.removeFirst().waiter
    }
    switch next {
    case .thread(let semaphore): semaphore.signal()
    case .task(let continuation): continuation.resume()
    case nil: break
    }
  }
}
