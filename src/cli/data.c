/* data.c — the data directory: DIR/parapet.db, DIR/tls/. */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/catalogue.h"
#include "store/select/select.h"

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

static const char *store_url;

void cli_set_store(const char *url)
{
    store_url = url && *url ? url : NULL;
}

const char *cli_store_url(void)
{
    return store_url;
}

void cli_store_config(const char *data_dir, struct store_config *cfg)
{
    static char db[4096];
    const char *url = store_url ? store_url : getenv("PARAPET_STORE");
    if (url && *url && (strncmp(url, "postgresql://", 13) == 0 || strncmp(url, "postgres://", 11) == 0)) {
        *cfg = (struct store_config){.backend = "postgresql", .path = url};
        return;
    }
    data_path(db, sizeof db, data_dir, "parapet.db");
    *cfg = (struct store_config){.backend = "sqlite", .path = db};
}

struct store *cli_open_store_sized(const char *data_dir, int cache_kb)
{
    if (make_dir(data_dir) != 0) /* also for PostgreSQL: TLS files, data-plane state */
        return NULL;
    struct store_config cfg;
    cli_store_config(data_dir, &cfg);
    cfg.cache_kb = cache_kb;
    struct store *s = store_open(&cfg);
    /* The catalogue's shipped defaults, on the first start (and for any key
     * a newer version ships); a source that cannot be read is reported and
     * its key left out. */
    if (s && catalogue_seed(s) != 0)
        fprintf(stderr, "parapet: some catalogue defaults could not be loaded (see above)\n");
    return s;
}
