/* schema_guard.h — a binary older than its database refuses to start: the
 * newest migration the database has applied must be one the binary knows
 * (migrations.h). Migrations only ever go forward; an older binary would
 * read and write tables whose meaning it does not know. */
#ifndef PARAPET_SCHEMA_GUARD_H
#define PARAPET_SCHEMA_GUARD_H

#include "store/migrations.h"

/* The newest version of list (0 when empty). */
int schema_newest(const struct migration *list, int count);

/* 0 when db_version (the newest applied) is at most the newest of list;
 * otherwise -1 after saying so on stderr (where: the database's name). */
int schema_guard(const char *where, int db_version, const struct migration *list, int count);

#endif
