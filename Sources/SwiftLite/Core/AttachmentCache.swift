/// Per-connection state of the layers above Core (the model tables already checked against
/// their model, with their SQL), keyed by type and name, holding at most `capacity`
/// entries: the least recently used go first.
///
/// An app that makes one table per target (per chat, per account) can use any number of
/// them on one connection without the cache growing with them. A loop over one model finds
/// its entry with one comparison, before any hashing.
final class AttachmentCache {
  /// What an entry is stored under.
  struct Key: Hashable {
    let type: ObjectIdentifier
    let name: String
  }

  private struct Entry {
    let value: AnyObject
    /// The clock when the entry was stored or last found by hashing. An entry used many
    /// times in a row through `last` keeps the stamp it had when it became `last`: no
    /// other entry was used in between, so the order of use stays exact.
    var lastUse: UInt64
  }

  /// The most entries kept.
  let capacity: Int
  private var entries: [Key: Entry] = [:]
  @exclusivity(unchecked) private var last: (key: Key, value: AnyObject)?
  private var clock: UInt64 = 0

  init(capacity: Int) { self.capacity = max(1, capacity) }

  /// The number of entries held.
  var count: Int { entries.count }

  /// The value stored under `key`, or `nil`.
  func value(for key: Key) -> AnyObject? {
    if let last, last.key == key { return last.value }
    guard let index = entries.index(forKey: key) else { return nil }
    clock &+= 1
    entries.values[index].lastUse = clock
    let value = entries.values[index].value
    last = (key, value)
    return value
  }

  /// Stores `value` under `key`, evicting the least recently used entries when full.
  func set(_ value: AnyObject, for key: Key) {
    if entries.count >= capacity, entries[key] == nil { evictLeastRecentlyUsed() }
    clock &+= 1
    entries[key] = Entry(value: value, lastUse: clock)
    last = (key, value)
  }

  /// Forgets the entry under `key`.
  func remove(_ key: Key) {
    entries[key] = nil
    if last?.key == key { last = nil }
  }

  /// Forgets every entry.
  func removeAll() {
    entries.removeAll()
    last = nil
  }

  /// Evicts the least recently used quarter at once, so the sort runs once per
  /// `capacity / 4` insertions rather than on each.
  private func evictLeastRecentlyUsed() {
    let victims = entries.sorted { $0.value.lastUse < $1.value.lastUse }
      .prefix(max(1, capacity / 4))
    for victim in victims { entries[victim.key] = nil }
    if let last, entries[last.key] == nil { self.last = nil }
  }
}
