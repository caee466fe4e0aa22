/// Per-connection state that a layer above Core keeps on a connection (the Store keeps the
/// model tables it checked against their model, with their SQL): values of one type, keyed
/// by a type and a name, at most `capacity` of them: the least recently used go first.
/// A connection hands out one cache per value type (``Connection/attachments(of:)``), so a
/// layer reads back exactly the type it stored, with no cast of its own.
///
/// An app that makes one table per target (per chat, per account) can use any number of
/// them on one connection without the cache growing with them. A loop over one model finds
/// its entry with one comparison, before any hashing.
final class AttachmentCache<Value: AnyObject>: AttachmentStore {
  /// What an entry is stored under.
  typealias Key = AttachmentKey

  private struct Entry {
    let value: Value
    /// The clock when the entry was stored or last found by hashing. An entry used many
    /// times in a row through `last` keeps the stamp it had when it became `last`: no
    /// other entry was used in between, so the order of use stays exact.
    var lastUse: UInt64
  }

  /// The most entries kept.
  let capacity: Int
  private var entries: [Key: Entry] = [:]
  @exclusivity(unchecked) private var last: (key: Key, value: Value)?
  private var clock: UInt64 = 0

  init(capacity: Int) { self.capacity = max(1, capacity) }

  /// The number of entries held.
  var count: Int { entries.count }

  /// The value stored under `key`, or `nil`.
  func value(for key: Key) -> Value? {
    if let last, last.key == key { return last.value }
    guard let index = entries.index(forKey: key) else { return nil }
    clock &+= 1
    entries.values[index].lastUse = clock
    let value = entries.values[index].value
    last = (key, value)
    return value
  }

  /// Stores `value` under `key`, evicting the least recently used entries when full.
  func set(_ value: Value, for key: Key) {
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

/// The key of an ``AttachmentCache`` entry: a type (a model's, say) and a name (its table's).
/// Names are told apart by their bytes, as SQLite tells tables apart: a target "caf\u{E9}"
/// and a target "cafe\u{301}" are two tables, and must not share an entry.
struct AttachmentKey: Hashable {
  let type: ObjectIdentifier
  let name: String

  static func == (lhs: AttachmentKey, rhs: AttachmentKey) -> Bool {
    lhs.type == rhs.type && lhs.name.hasSameBytes(as: rhs.name)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(type)
    name.hashBytes(into: &hasher)
  }
}

/// What a connection needs of every attachment cache, whatever its value type.
protocol AttachmentStore: AnyObject {
  /// Forgets every entry.
  func removeAll()
}
