internal import CSQLite
import Foundation
import Synchronization

/// The functions of SQLite's session extension (<https://sqlite.org/sessionintro.html>),
/// looked up in the running process rather than linked.
///
/// `sqlite3.h` declares them only when `SQLITE_ENABLE_SESSION` and
/// `SQLITE_ENABLE_PREUPDATE_HOOK` are defined, and a libsqlite3 built without them lacks the
/// symbols: linking them would make SwiftLite fail to build or load there. They are found
/// with `dlsym` instead, in the library that holds `sqlite3_libversion` (the one SwiftLite
/// links), found through the process's global scope (`dlopen(NULL)`). Where they are missing, the first use of a
/// session, a changeset or an apply throws ``ChangesetError/sessionExtensionUnavailable(missing:)``.
///
/// The signatures are those of `sqlite3.h` (SQLite 3.40); the session objects, changeset
/// iterators and change groups are opaque pointers.
struct SessionAPI: @unchecked Sendable {
  typealias Filter = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Int32
  typealias Conflict = @convention(c) (UnsafeMutableRawPointer?, Int32, OpaquePointer?) -> Int32
  typealias Output = UnsafeMutablePointer<UnsafeMutableRawPointer?>

  let create:
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?)
      -> Int32
  let delete: @convention(c) (OpaquePointer?) -> Void
  let attach: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
  let tableFilter: @convention(c) (OpaquePointer?, Filter?, UnsafeMutableRawPointer?) -> Void
  let changeset: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, Output?) -> Int32
  let patchset: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, Output?) -> Int32
  let isEmpty: @convention(c) (OpaquePointer?) -> Int32
  let enable: @convention(c) (OpaquePointer?, Int32) -> Int32
  let start:
    @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafeMutableRawPointer?) -> Int32
  let next: @convention(c) (OpaquePointer?) -> Int32
  let operation:
    @convention(c) (
      OpaquePointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, UnsafeMutablePointer<Int32>?,
      UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?
    ) -> Int32
  let primaryKey:
    @convention(c) (
      OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?,
      UnsafeMutablePointer<Int32>?
    ) -> Int32
  let old: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
  let new: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
  let conflict:
    @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
  let foreignKeyConflicts: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?) -> Int32
  let finalize: @convention(c) (OpaquePointer?) -> Int32
  let invert:
    @convention(c) (Int32, UnsafeRawPointer?, UnsafeMutablePointer<Int32>?, Output?) -> Int32
  let groupNew: @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Int32
  let groupAdd: @convention(c) (OpaquePointer?, Int32, UnsafeMutableRawPointer?) -> Int32
  let groupOutput: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, Output?) -> Int32
  let groupDelete: @convention(c) (OpaquePointer?) -> Void
  let apply:
    @convention(c) (
      OpaquePointer?, Int32, UnsafeMutableRawPointer?, Filter?, Conflict?,
      UnsafeMutableRawPointer?, Output?, UnsafeMutablePointer<Int32>?, Int32
    ) -> Int32

  /// The names looked up, in the order of the properties above.
  static let symbolNames = [
    "sqlite3session_create", "sqlite3session_delete", "sqlite3session_attach",
    "sqlite3session_table_filter", "sqlite3session_changeset", "sqlite3session_patchset",
    "sqlite3session_isempty", "sqlite3session_enable", "sqlite3changeset_start",
    "sqlite3changeset_next", "sqlite3changeset_op", "sqlite3changeset_pk",
    "sqlite3changeset_old", "sqlite3changeset_new", "sqlite3changeset_conflict",
    "sqlite3changeset_fk_conflicts", "sqlite3changeset_finalize", "sqlite3changeset_invert",
    "sqlite3changegroup_new", "sqlite3changegroup_add", "sqlite3changegroup_output",
    "sqlite3changegroup_delete", "sqlite3changeset_apply_v2",
  ]

  /// The functions of the library this process runs, looked up once.
  private static let system = load(symbolPrefix: "")

  /// When set, ``resolved()`` looks the functions up under names no library has, so tests
  /// can take the path of a SQLite built without the session extension.
  static let pretendsMissing = Atomic<Bool>(false)

  /// The session functions, or the error that says which are missing.
  static func resolved() throws(ChangesetError) -> SessionAPI {
    let result =
      pretendsMissing.load(ordering: .relaxed) ? load(symbolPrefix: "swiftlite_no_") : system
    return try result.get()
  }

  /// Whether the running SQLite has the session extension.
  static var isAvailable: Bool { (try? resolved()) != nil }

  /// Looks every function up; `symbolPrefix` is put before each name (tests pass one no
  /// library exports).
  static func load(symbolPrefix: String) -> Result<SessionAPI, ChangesetError> {
    var found: [UnsafeMutableRawPointer] = []
    var missing: [String] = []
    let library = sqliteLibraryHandle()
    for name in symbolNames {
      let symbol = symbolPrefix + name
      if let library, let pointer = dlsym(library, symbol) {
        found.append(pointer)
      } else {
        missing.append(symbol)
      }
    }
    guard missing.isEmpty else {
      return .failure(.sessionExtensionUnavailable(missing: missing))
    }
    var pointers = found.makeIterator()
    func next<F>() -> F { unsafeBitCast(pointers.next()!, to: F.self) }
    return .success(
      SessionAPI(
        create: next(), delete: next(), attach: next(), tableFilter: next(), changeset: next(),
        patchset: next(), isEmpty: next(), enable: next(), start: next(), next: next(),
        operation: next(), primaryKey: next(), old: next(), new: next(), conflict: next(),
        foreignKeyConflicts: next(), finalize: next(), invert: next(), groupNew: next(),
        groupAdd: next(), groupOutput: next(), groupDelete: next(), apply: next()))
  }

  /// A handle that finds the symbols of the SQLite library SwiftLite links: the process's
  /// global scope, or that library by its usual name, whichever resolves
  /// `sqlite3_libversion` to the very function SwiftLite calls (a scope where another
  /// SQLite comes first would hand out the other library's sessions).
  private static func sqliteLibraryHandle() -> UnsafeMutableRawPointer? {
    let version: @convention(c) () -> UnsafePointer<CChar>? = sqlite3_libversion
    let linked = unsafeBitCast(version, to: UnsafeMutableRawPointer.self)
    var candidates = [dlopen(nil, RTLD_NOW)]
    for name in ["libsqlite3.so.0", "libsqlite3.so", "libsqlite3.dylib"] {
      candidates.append(dlopen(name, RTLD_NOW | RTLD_NOLOAD))
    }
    return candidates.compactMap { $0 }.first { dlsym($0, "sqlite3_libversion") == linked }
  }
}
