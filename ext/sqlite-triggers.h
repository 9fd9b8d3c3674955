/*
** sqlite-triggers.h -- the public header: the extension's entry point, for
** applications that link the static archive (`make static`,
** libsqlite_triggers.a) or call the entry point of the loadable object
** themselves. Installed by `make install` into $(PREFIX)/include.
**
**   #include <sqlite3.h>
**   #include <sqlite-triggers.h>
**
**   sqlite3_auto_extension((void (*)(void))sqlite3_triggers_init);
**   sqlite3_open("app.db", &db);        // every new connection has it
**   sqlite3_exec(db, "SELECT trigger_install()", 0, 0, 0);
**
** Link: `pkg-config --cflags --libs sqlite-triggers` (the archive, libxml2,
** libm and SQLite itself).
*/
#ifndef SQLITE_TRIGGERS_H
#define SQLITE_TRIGGERS_H

#include <sqlite3.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Registers the virtual tables `triggers` and `trigger_runs` and every
** trigger_* function on db. pApi is ignored in a static build (NULL is
** fine); the loadable object needs the routines SQLite passes. Returns
** SQLITE_OK, or an error code with *pzErrMsg set (sqlite3_free it). */
int sqlite3_triggers_init(sqlite3 *db, char **pzErrMsg,
                          const sqlite3_api_routines *pApi);

#ifdef __cplusplus
}
#endif

#endif
