/// A coding key's type and bytes, for an enum key type of plain bits (no references) of at
/// most eight bytes: a synthesized `CodingKeys` enum is one byte.
///
/// Two keys of such a type with the same bytes are the same case, and a key's `stringValue`
/// depends on its case only, so a coder that learned which column a key names finds that
/// column again by comparing these bits: no call to `stringValue`, no `String` made, compared
/// or released per key. A struct or class key may compute its name from anything, so keys of
/// other types have no bits and go by name.
struct KeyBits: Equatable {
  /// The key's type, as the metadata pointer Swift passes with the key.
  private let type: ObjectIdentifier
  /// How many bytes of the key are compared: 0, 1, 2, 4 or 8.
  private let size: UInt8
  private let bits: UInt64

  /// The bits of `key`, or `nil` when its type is not an enum, holds references or is not
  /// 0, 1, 2, 4 or 8 bytes long.
  init?<Key: CodingKey>(_ key: Key) {
    guard Self.isEnum(Key.self), _isPOD(Key.self) else { return nil }
    let size = MemoryLayout<Key>.size
    guard size == 0 || size == 1 || size == 2 || size == 4 || size == 8 else { return nil }
    self.type = ObjectIdentifier(Key.self)
    self.size = UInt8(size)
    self.bits = Self.load(key, size: size)
  }

  /// Whether `key` is of this type and has these bits: a comparison of the type, then of
  /// `size` bytes; the type's size is not asked again.
  @inline(__always) func matches<Key: CodingKey>(_ key: Key) -> Bool {
    type == ObjectIdentifier(Key.self) && bits == Self.load(key, size: Int(size))
  }

  /// Whether `Key` is an enum. A type's metadata starts with its kind, a word that Swift's
  /// stable ABI fixes at 0x201 for an enum (0x200 for a struct; a class's is an isa
  /// pointer): one load, where asking a `Mirror` would allocate for every key learned.
  @inline(__always) private static func isEnum<Key>(_: Key.Type) -> Bool {
    unsafeBitCast(Key.self as Any.Type, to: UnsafePointer<UInt>.self).pointee == 0x201
  }

  /// The key's bytes, reinterpreted in place: no closure, which a key type known only at
  /// run time would not inline.
  @inline(__always) private static func load<Key>(_ key: Key, size: Int) -> UInt64 {
    switch size {
    case 1: UInt64(unsafeBitCast(key, to: UInt8.self))
    case 2: UInt64(unsafeBitCast(key, to: UInt16.self))
    case 4: UInt64(unsafeBitCast(key, to: UInt32.self))
    case 8: unsafeBitCast(key, to: UInt64.self)
    default: 0
    }
  }
}
