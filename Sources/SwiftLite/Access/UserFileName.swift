/// The reversible encoding of a user id into the part of a file name that follows
/// `<prefix>_` in a ``DatabaseDirectory``.
///
/// Lowercase ASCII letters, digits and `-` stand for themselves; every other byte of the
/// id's UTF-8 (uppercase letters, `_`, `.`, `/`, `\`, NUL, control characters, anything
/// beyond ASCII) becomes `_` and two lowercase hex digits. So:
/// - the name holds only `[a-z0-9_-]`: no separator, no `.` or `..`, nothing a file system
///   rejects or rewrites, and no uppercase, so ids that differ only in case (`"Ann"` is
///   `_41nn`, `"ann"` is `ann`) never meet on a case-insensitive file system;
/// - each id has exactly one encoding and each encoding one id: decoding refuses any
///   other spelling, so a stray file never passes for a user;
/// - the common ids of apps (numbers, lowercase names) keep their plain name, as in
///   `app_12345.sqlite`. The id `"common"` is the one exception: it is spelled `_63ommon`,
///   away from the common database.
enum UserFileName {
  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func passesThrough(_ byte: UInt8) -> Bool {
    (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D
  }

  /// The file-name form of `id`.
  static func encode(_ id: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(id.utf8.count)
    for (index, byte) in id.utf8.enumerated() {
      if passesThrough(byte) && !(index == 0 && id == "common") {
        bytes.append(byte)
      } else {
        bytes += [0x5F, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The id that `name` encodes, or `nil` when `name` is not exactly an encoding made by
  /// ``encode(_:)``.
  static func decode(_ name: Substring) -> String? {
    var bytes: [UInt8] = []
    var iterator = name.utf8.makeIterator()
    while let byte = iterator.next() {
      if passesThrough(byte) {
        bytes.append(byte)
        continue
      }
      guard byte == 0x5F, let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else { return nil }
      bytes.append(high << 4 | low)
    }
    guard let id = String(validating: bytes, as: UTF8.self) else { return nil }
    // Only the canonical spelling counts: "_61" for "a" is not a user's file.
    return encode(id) == String(name) ? id : nil
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }
}
