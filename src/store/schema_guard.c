/* schema_guard.c — see schema_guard.h. */
#include "store/schema_guard.h"

#include <stdio.h>

int schema_newest(const struct migration *list, int count)
{
    int newest = 0;
    for (int i = 0; i < count; i++)
        if (list[i].version > newest)
            newest = list[i].version;
    return newest;
}

int schema_guard(const char *where, int db_version, const struct migration *list, int count)
{
    int known = schema_newest(list, count);
    if (db_version <= known)
        return 0;
    fprintf(stderr,
            "parapet: %s is at schema version %d, newer than this parapet (it knows versions up to %d): a newer "
            "parapet has upgraded it. Run that version (or a newer one), or restore a backup made before the "
            "upgrade; parapet never downgrades a database.\n",
            where, db_version, known);
    return -1;
}
