/* migrations.h — the numbered schema migrations, embedded at build time from
 * src/store/migrations/NNN_name.sql (tools/embed-migrations.sh). */
#ifndef PARAPET_MIGRATIONS_H
#define PARAPET_MIGRATIONS_H

struct migration {
    int version;
    const char *name;
    const char *sql;
};

extern const struct migration migrations[];
extern const int migrations_count;

#endif
