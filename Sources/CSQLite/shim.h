#ifndef SWIFTLITE_CSQLITE_SHIM_H
#define SWIFTLITE_CSQLITE_SHIM_H
/* sqlite3.h declares the session extension and the pre-update hook only when these are
   defined. Declaring them costs nothing where the library lacks them: SwiftLite looks the
   session functions up at run time, and a user who imports CSQLite calls them through
   Connection.withUnsafeHandle where they exist. */
#ifndef SQLITE_ENABLE_SESSION
#define SQLITE_ENABLE_SESSION 1
#endif
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif
#include <sqlite3.h>

/// sqlite3_db_config is variadic, which Swift cannot call: this fixed form sets one
/// integer option (SQLITE_DBCONFIG_DQS_DML, ...) and returns SQLite's result code.
static inline int swiftlite_db_config_flag(sqlite3 *db, int option, int value) {
  return sqlite3_db_config(db, option, value, (int *)0);
}

#endif
