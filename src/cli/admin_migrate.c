/* admin_migrate.c — `parapet admin migrate --from sqlite:DIR --to
 * postgresql://…`: moves an installation's data from SQLite to PostgreSQL
 * (store/pgsql/import.c does the copy and the checks). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/admin.h"
#include "cli/admin_print.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "store/pgsql/pgsql.h"
#include "store/sqlite/sqlite.h"

static const struct opt migrate_opts[] = {{.name = "from"}, {.name = "to"}, {.name = NULL}};

static bool is_pg_url(const char *s)
{
    return s && (strncmp(s, "postgresql://", 13) == 0 || strncmp(s, "postgres://", 11) == 0);
}

int admin_migrate(int argc, char **argv)
{
    json_t *a = args_parse(argc, argv, migrate_opts);
    if (!a)
        return 2;
    const char *from = arg_str(a, "from"), *to = arg_str(a, "to");
    if (!from || strncmp(from, "sqlite:", 7) != 0 || !from[7] || !is_pg_url(to)) {
        fprintf(stderr, "parapet: admin migrate --from sqlite:DATA_DIR --to postgresql://USER@HOST/DB\n");
        json_decref(a);
        return 2;
    }
    char db[4096], err[4096 + 512];
    data_path(db, sizeof db, from + 7, "parapet.db");
    json_t *report = NULL;
    /* The source's schema brought to this parapet's version first, by
     * opening it as the server would (pgsql_import_sqlite reads the file). */
    struct store *source = NULL;
    int rc = -1;
    if (access(db, R_OK) != 0) {
        snprintf(err, sizeof err, "no SQLite store at %s", db);
    } else if (!(source = sqlite_store_open(db))) {
        snprintf(err, sizeof err, "the SQLite store at %s cannot be opened", db);
    } else {
        source->ops->close(source);
        rc = pgsql_import_sqlite(db, to, &report, err, sizeof err);
    }
    json_decref(a);
    if (rc != 0) {
        fprintf(stderr, "parapet: migrate: %s (nothing was written)\n", err);
        return 1;
    }
    json_object_set_new(report, "from", json_string(db));
    return admin_print(report);
}
