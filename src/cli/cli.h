/* cli.h — the subcommands of the one `parapet` binary. */
#ifndef PARAPET_CLI_H
#define PARAPET_CLI_H

#include "core/config.h"
#include "store/store.h"

int cli_serve(int argc, char **argv);
int cli_admin(int argc, char **argv);
int cli_capture_agent(int argc, char **argv);     /* capture_agent.c */
int cli_simulate(int argc, char **argv);          /* simulate.c */
int cli_ingest(int argc, char **argv);            /* ingest.c */
int cli_openapi(int argc, char **argv);           /* openapi_cmd.c */
int cli_fastnetmon_notify(int argc, char **argv); /* fastnetmon_notify.c */
/* manpage.c: main_usage prints the program's usage on stderr (main.c). */
int cli_manpage(int argc, char **argv, void (*main_usage)(void));

/* Where every command's data lives: `--store URL` (any command; main.c
 * takes it out of argv) or PARAPET_STORE, as postgresql://... (or
 * postgres://...); otherwise the SQLite database DIR/parapet.db. */
void cli_set_store(const char *url);
/* The URL cli_set_store was given, or NULL. */
const char *cli_store_url(void);
/* cfg for the store of data_dir (its strings stay valid until the next call). */
void cli_store_config(const char *data_dir, struct store_config *cfg);
/* Opens the store (creating the data directory and migrating if needed). */
struct store *cli_open_store(const char *data_dir);
/* The same with a page cache of cache_kb per connection (bulk loads). */
struct store *cli_open_store_sized(const char *data_dir, int cache_kb);
enum { CLI_BULK_CACHE_KB = 32768 };
/* "<data_dir>/<name>" into out. */
void data_path(char *out, size_t size, const char *data_dir, const char *name);

/* Seeds a data directory for `serve --dev` (once) and prints its
 * credentials with working curl lines. Returns 0 or -1. */
int dev_seed_and_print(const struct server_config *cfg);
/* dev_ap.c: the Application Protection part of the dev data set (once). */
int dev_ap_seed(struct store *s, const char *data_dir, const char *customer_id);
/* dev_telemetry.c: a month of simulated telemetry, once (recorded in the
 * credentials object `creds`): 1 seeded, 0 seeded before, -1 failed. */
int dev_telemetry_seed(const char *data_dir, json_t *creds);

#endif
