/// The order in which a model's `init(from:)` or `encode(to:)` names its keys, learned from
/// the first value a coder handles, with the column each key names: a coder serves every
/// later value by checking that the next key is the one expected at that point, and finds
/// its column without a look-up by name.
///
/// The check compares the key's bits when its type has them (see ``KeyBits``), else its
/// name. Synthesized `Codable` names its keys in declaration order, so the check always
/// passes; a key out of the learned order is looked up by name.
struct KeyOrder {
  // In parallel arrays, so that checking the next key compares it in place, copying no
  // tuple out; -1 for a key that names no column.
  private var names: ContiguousArray<String> = []
  private var bits: ContiguousArray<KeyBits?> = []
  private var indices: ContiguousArray<Int> = []
  /// Where the next key stands in the order: 0 at the start of each value.
  var cursor = 0

  /// The column position of `key`, the next key the value names; `lookUp` finds a column
  /// by name for a key the learned order does not predict.
  @inline(__always) mutating func index<Key: CodingKey>(
    of key: Key, lookUp: (String) -> Int?
  ) -> Int? {
    let at = cursor
    cursor = at &+ 1
    if at < bits.count, let learned = bits[at], learned.matches(key) {
      let index = indices[at]
      return index < 0 ? nil : index
    }
    return index(named: key.stringValue, at: at, bits: KeyBits(key), lookUp: lookUp)
  }

  /// ``index(of:lookUp:)`` for a key without bits, or whose bits were not learned at
  /// `position`; learned when it extends the order.
  @inline(never) private mutating func index(
    named name: String, at position: Int, bits keyBits: KeyBits?, lookUp: (String) -> Int?
  ) -> Int? {
    if position < names.count, names[position] == name {
      let index = indices[position]
      return index < 0 ? nil : index
    }
    let index = lookUp(name)
    if position == names.count {
      names.append(name)
      bits.append(keyBits)
      indices.append(index ?? -1)
    }
    return index
  }

  /// Forgets the learned order: the columns it names are no longer the coder's.
  mutating func forget() {
    names.removeAll(keepingCapacity: true)
    bits.removeAll(keepingCapacity: true)
    indices.removeAll(keepingCapacity: true)
  }
}
