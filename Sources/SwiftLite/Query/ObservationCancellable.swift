/// Keeps an observation of ``DatabaseAccess/observe(_:onError:onChange:)`` running: call
/// ``cancel()`` to stop it. Releasing the last reference cancels it too, so keep it for as
/// long as you want the values.
///
/// `Sendable`: cancel from any thread.
public final class ObservationCancellable: Sendable {
  private let cancelRunner: @Sendable () -> Void

  init(_ cancel: @escaping @Sendable () -> Void) { cancelRunner = cancel }

  deinit { cancelRunner() }

  /// Stops the observation: no value is delivered after this returns, except one already
  /// being delivered. Cancelling again does nothing.
  public func cancel() { cancelRunner() }
}
