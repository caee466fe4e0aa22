import Synchronization

/// Where the keyed containers of a ``RowDecoder`` find the decoder that made them, without
/// holding a reference count.
///
/// The standard library's container box copies the container for every key it is given:
/// a container holding a class reference costs a retain, a release and two calls through
/// value witnesses per key (about 60 instructions), one that holds only a ``Token`` (plain
/// bits) costs a copy of 16 bytes. (An encoding container is not copied: its mutating
/// methods run in place.) Slots are never freed: a coder takes one when it is made
/// and gives it back when it goes away, and the next coder reuses it with a new
/// generation, so a container kept beyond its coder's life (by a model that keeps what its
/// `init(from:)` was given, say) finds no coder rather than a freed one or another's.
final class ContainerSlot: @unchecked Sendable {
  // Written only by the coder that holds the slot (when it takes it and when it goes away);
  // the pool's lock orders those writes between successive holders.
  private var owner: Unmanaged<AnyObject>?
  private var generation: UInt64 = 0

  private static let free = Mutex<[ContainerSlot]>([])

  private init() {}

  /// A slot, reused when one is free; its coder ``attach(_:)``es itself once made.
  static func take() -> ContainerSlot {
    free.withLock { $0.popLast() } ?? ContainerSlot()
  }

  /// Makes `owner` (not retained) what the slot's containers find.
  func attach(_ owner: AnyObject) {
    self.owner = Unmanaged.passUnretained(owner)
  }

  /// Gives the slot back: containers that refer to it no longer find its owner.
  func giveBack() {
    owner = nil
    generation &+= 1
    Self.free.withLock { $0.append(self) }
  }

  /// What a container keeps: the slot and the generation it was made in. Plain bits.
  var token: Token { Token(slot: Unmanaged.passUnretained(self), generation: generation) }

  /// A container's way to its coder: plain bits, copied without reference counting.
  struct Token {
    let slot: Unmanaged<ContainerSlot>
    let generation: UInt64

    /// Runs `body` with the coder, borrowed: no retain and release around it; with
    /// `orphan()` when the coder that made the container is gone.
    @inline(__always) func withOwner<Owner: AnyObject, T>(
      _ type: Owner.Type, orphan: () -> Owner, _ body: (Owner) throws -> T
    ) rethrows -> T {
      try slot._withUnsafeGuaranteedRef { slot in
        guard slot.generation == generation, let owner = slot.owner else {
          return try body(orphan())
        }
        return try owner._withUnsafeGuaranteedRef { try body(unsafeDowncast($0, to: Owner.self)) }
      }
    }
  }
}
