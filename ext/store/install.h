/*
** install.h -- trigger_install(): the three virtual tables created, or an
** older schema migrated, refusing names another table holds.
*/
#ifndef TRIGGERS_INSTALL_H
#define TRIGGERS_INSTALL_H

#include "store/store.h"

int store_install(sqlite3 *db, char **err);

#endif
