internal import CCrypto
import Foundation

/// Salted PBKDF2-HMAC-SHA256 password hashing, computed by the system's libcrypto
/// (OpenSSL): never a hand-written hash, never the password itself in the database.
///
/// ```swift
/// let hasher = PasswordHasher()
/// let stored = try hasher.hash("correct horse")          // random salt + derived key
/// try hasher.verify("correct horse", against: stored)    // true
/// try hasher.verify("wrong", against: stored)            // false
/// ```
///
/// The derived key depends on the iteration count, so verify with the count the hash was
/// made with. See <https://www.openssl.org/docs/man3.0/man3/PKCS5_PBKDF2_HMAC.html> and
/// RFC 8018, section 5.2.
public struct PasswordHasher: Sendable {
  /// The iteration count used unless you choose another: OWASP's 2023 recommendation for
  /// PBKDF2-HMAC-SHA256.
  public static let defaultIterations = 600_000
  /// The length of a fresh salt, in bytes (128 bits).
  public static let saltLength = 16
  /// The length of the derived key, in bytes (256 bits, one SHA-256 block).
  public static let keyLength = 32

  /// The PBKDF2 iteration count.
  public let iterations: Int

  /// A hasher with the given iteration count.
  /// - Parameter iterations: at least 100,000 in production; tests may use fewer. Must be in
  ///   `1...Int32.max` (a programming error otherwise).
  public init(iterations: Int = PasswordHasher.defaultIterations) {
    precondition(iterations >= 1 && iterations <= Int(Int32.max), "iterations out of range")
    self.iterations = iterations
  }

  /// Hashes a password with a fresh random salt.
  /// - Parameter password: the password; its UTF-8 bytes are hashed as given.
  /// - Returns: the derived key and the salt; store both.
  /// - Throws: ``ContactsError/cryptoFailure(_:)`` when libcrypto fails.
  public func hash(_ password: String) throws -> PasswordHash {
    let salt = try Self.randomBytes(count: Self.saltLength)
    return PasswordHash(key: try deriveKey(password, salt: salt), salt: salt)
  }

  /// Checks a password against a stored hash, comparing in constant time
  /// (`CRYPTO_memcmp`) so the time taken does not reveal how many bytes matched.
  /// - Parameters:
  ///   - password: the password to check.
  ///   - stored: the key and salt made by ``hash(_:)``.
  /// - Returns: `true` when the password is the one that was hashed.
  /// - Throws: ``ContactsError/cryptoFailure(_:)`` when libcrypto fails.
  public func verify(_ password: String, against stored: PasswordHash) throws -> Bool {
    let candidate = try deriveKey(password, salt: stored.salt)
    guard candidate.count == stored.key.count else { return false }
    return candidate.withUnsafeBytes { lhs in
      stored.key.withUnsafeBytes { rhs in
        CRYPTO_memcmp(lhs.baseAddress, rhs.baseAddress, lhs.count) == 0
      }
    }
  }

  /// PBKDF2-HMAC-SHA256 of `password` with `salt`: ``keyLength`` bytes.
  /// - Parameters:
  ///   - password: the password; its UTF-8 bytes are used as given (no normalization).
  ///   - salt: the salt.
  /// - Returns: the derived key.
  /// - Throws: ``ContactsError/cryptoFailure(_:)`` when `PKCS5_PBKDF2_HMAC` fails.
  public func deriveKey(_ password: String, salt: Data) throws -> Data {
    var key = [UInt8](repeating: 0, count: Self.keyLength)
    let saltBytes = [UInt8](salt)
    let passwordLength = password.utf8.count
    guard passwordLength <= Int(Int32.max), saltBytes.count <= Int(Int32.max) else {
      throw ContactsError.cryptoFailure("PKCS5_PBKDF2_HMAC")
    }
    // withCString gives a valid pointer even for "", and keeps any interior NUL: the
    // length is passed explicitly.
    let status = password.withCString { passwordPointer in
      saltBytes.withUnsafeBufferPointer { saltPointer in
        key.withUnsafeMutableBufferPointer { keyPointer in
          PKCS5_PBKDF2_HMAC(
            passwordPointer, Int32(passwordLength),
            saltPointer.baseAddress, Int32(saltPointer.count),
            Int32(iterations), EVP_sha256(),
            Int32(keyPointer.count), keyPointer.baseAddress)
        }
      }
    }
    guard status == 1 else { throw ContactsError.cryptoFailure("PKCS5_PBKDF2_HMAC") }
    return Data(key)
  }

  /// Cryptographically secure random bytes from libcrypto's `RAND_bytes`.
  /// - Throws: ``ContactsError/cryptoFailure(_:)`` when the generator cannot supply them.
  static func randomBytes(count: Int) throws -> Data {
    var bytes = [UInt8](repeating: 0, count: count)
    let status = bytes.withUnsafeMutableBufferPointer {
      RAND_bytes($0.baseAddress, Int32($0.count))
    }
    guard status == 1 else { throw ContactsError.cryptoFailure("RAND_bytes") }
    return Data(bytes)
  }
}

/// A derived key and the salt it was derived with: what the store keeps instead of a
/// password (`password_hash` and `password_salt`).
public struct PasswordHash: Sendable, Hashable {
  /// The PBKDF2 output.
  public let key: Data
  /// The random salt.
  public let salt: Data

  /// Wraps a stored key and salt.
  /// - Parameters:
  ///   - key: the derived key.
  ///   - salt: the salt.
  public init(key: Data, salt: Data) {
    self.key = key
    self.salt = salt
  }
}
