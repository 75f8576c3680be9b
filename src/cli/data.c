/* data.c — the data directory: DIR/parapet.db, DIR/tls/. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/catalogue.h"

void data_path(char *out, size_t size, const char *data_dir, const char *name)
{
    snprintf(out, size, "%s/%s", data_dir, name);
}

static int make_dir(const char *path)
{
    if (mkdir(path, 0700) == 0 || errno == EEXIST)
        return 0;
    fprintf(stderr, "parapet: cannot create %s: %s\n", path, strerror(errno));
    return -1;
}

struct store *cli_open_store(const char *data_dir)
{
    return cli_open_store_sized(data_dir, 0);
}

struct store *cli_open_store_sized(const char *data_dir, int cache_kb)
{
    char db[4096];
    if (make_dir(data_dir) != 0)
        return NULL;
    data_path(db, sizeof db, data_dir, "parapet.db");
    struct store_config cfg = {.backend = "sqlite", .path = db, .cache_kb = cache_kb};
    struct store *s = store_open(&cfg);
    /* The catalogue's shipped defaults, on the first start (and for any key
     * a newer version ships); a source that cannot be read is reported and
     * its key left out. */
    if (s && catalogue_seed(s) != 0)
        fprintf(stderr, "parapet: some catalogue defaults could not be loaded (see above)\n");
    return s;
}
