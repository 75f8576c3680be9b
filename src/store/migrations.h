/* migrations.h — the numbered schema migrations, embedded at build time from
 * src/store/sqlite/migrations/NNN_name.sql and src/store/pgsql/migrations/NNN_name.sql
 * (tools/embed-migrations.sh). */
#ifndef PARAPET_MIGRATIONS_H
#define PARAPET_MIGRATIONS_H

struct migration {
    int version;
    const char *name;
    const char *sql;
};

extern const struct migration migrations[]; /* SQLite: migrations/NNN_name.sql */
extern const int migrations_count;
extern const struct migration pg_migrations[]; /* PostgreSQL: migrations/pg/NNN_name.sql, the same numbers */
extern const int pg_migrations_count;

#endif
