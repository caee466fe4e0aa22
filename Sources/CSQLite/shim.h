#ifndef SWIFTLITE_CSQLITE_SHIM_H
#define SWIFTLITE_CSQLITE_SHIM_H
#include <sqlite3.h>

/// sqlite3_db_config is variadic, which Swift cannot call: this fixed form sets one
/// integer option (SQLITE_DBCONFIG_DQS_DML, ...) and returns SQLite's result code.
static inline int swiftlite_db_config_flag(sqlite3 *db, int option, int value) {
  return sqlite3_db_config(db, option, value, (int *)0);
}

#endif
