import Foundation

/// Which of SwiftLite's serial queues runs the calling thread's closure now: a value kept per
/// thread, set for the length of each closure a ``DatabaseQueue`` or ``DatabasePool``
/// connection runs, and restored afterwards (a closure of one queue may run another's
/// inline, on the same thread).
///
/// A thread-local value instead of a dispatch queue's specific value: a queue that carries
/// one hands it to a global queue to be released when the queue goes, which wakes a worker
/// thread each time a database closes.
enum RunningQueue {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let code = pthread_key_create(&key, nil)
    precondition(code == 0, "pthread_key_create failed (\(code))")
    return key
  }()

  /// The identity of the queue whose closure the calling thread runs now, or 0 for none.
  static var current: UInt { UInt(bitPattern: pthread_getspecific(key)) }

  /// Runs `body` marked as run by the queue `identity` (never 0), then restores the mark
  /// the thread had before.
  static func run<T>(as identity: UInt, _ body: () throws -> T) rethrows -> T {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, UnsafeRawPointer(bitPattern: identity))
    defer { pthread_setspecific(key, previous) }
    return try body()
  }
}
