#ifndef SWIFTLITE_CSQLITE_SHIM_H
#define SWIFTLITE_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
