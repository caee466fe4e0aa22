import Foundation

/// A type that reads a TEXT value as its exact bytes (`Data`, `[UInt8]`): the way to read
/// text that is not valid UTF-8, which no `String` can hold unchanged.
protocol TextBytesReadable {
  /// The value holding exactly these bytes.
  init(textBytes: Data)
}

extension Data: TextBytesReadable {
  init(textBytes: Data) { self = textBytes }
}

extension Array: TextBytesReadable where Element == UInt8 {
  init(textBytes: Data) { self = [UInt8](textBytes) }
}

extension Optional: TextBytesReadable where Wrapped: TextBytesReadable {
  init(textBytes: Data) { self = .some(Wrapped(textBytes: textBytes)) }
}
