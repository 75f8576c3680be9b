/* sqlite/db.h — what the SQLite backend's files share: the store on its
 * connections (conn.h), a cache of prepared statements keyed by their SQL
 * text's address, and small binding and column helpers. */
#ifndef PARAPET_SQLITE_DB_H
#define PARAPET_SQLITE_DB_H

#include <sqlite3.h>
#include <time.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/sqlite/conn.h"
#include "store/store.h"

struct sqlite_writer;
struct tel_pending;

/* What a write transaction keeps in memory until it commits (the roll-up
 * sums of its telemetry ingest, sqlite/tel_ingest.c): written into the
 * transaction just before its COMMIT, or dropped with it. The file that
 * keeps it names its two steps in sqlite_store.pending, so that db.c calls
 * into no such file. */
struct sqlite_pending_steps {
    int (*flush)(struct store *s); /* STORE_OK or STORE_ERROR; it is dropped either way */
    void (*drop)(struct store *s);
};

struct sqlite_store {
    struct store base;
    sqlite3 *db;              /* the connection in use: conn->db */
    struct sqlite_conn *conn; /* own, or the shared writer's during a write transaction */
    struct sqlite_conn own;
    struct sqlite_writer *writer; /* see sqlite/writer.h; NULL: writes stay on own */
    sqlite3_int64 changes_at_begin; /* total changes when the write transaction began */
    struct timespec began;          /* when it began (metrics: write transaction time) */
    bool read_pending;              /* a read transaction begun, opened at its first statement (sqlite_begin) */
    bool defer_durability;          /* see store_ops.defer_durability */
    uint64_t ticket;                /* the last deferred commit's sequence number */
    struct tel_pending *tel_pending; /* roll-up sums of this transaction's flows (sqlite/tel_ingest.c) */
    const struct sqlite_pending_steps *pending; /* set while something is pending (tel_pending) */
};

#define DB(s) ((struct sqlite_store *)(s))
/* Binds a string that outlives the statement's execution. */
#define BIND_TEXT(st, i, v) sqlite3_bind_text((st), (i), (v), -1, SQLITE_STATIC)

/* The prepared statement for `sql` (a string constant: the cache keys on its
 * address), reset and with bindings cleared; NULL if it does not prepare. */
sqlite3_stmt *db_stmt(struct store *s, const char *sql);
/* Runs a statement that returns no rows; STORE_OK, STORE_CONFLICT on a
 * constraint violation, STORE_ERROR otherwise. */
int db_exec_stmt(struct store *s, sqlite3_stmt *st);
int db_log_error(struct store *s, const char *what);
/* The store code of a step that looked for one row: STORE_OK (SQLITE_ROW),
 * STORE_NOT_FOUND (SQLITE_DONE), or STORE_ERROR (logged as `what`). */
int db_row_result(struct store *s, int step_rc, const char *what);
/* Copies column i (text) into dst[size]. */
void db_col_text(sqlite3_stmt *st, int i, char *dst, size_t size);
/* The rows of a statement as an array of objects keyed by column name
 * (INTEGER columns as integers, everything else as strings). */
int db_rows_json(struct store *s, sqlite3_stmt *st, json_t **out);


/* Connection-level operations (sqlite/db.c). */
void sqlite_close(struct store *s);
int sqlite_begin(struct store *s, bool write);
int sqlite_commit(struct store *s);
int sqlite_rollback(struct store *s);
uint64_t sqlite_data_version(struct store *s);
uint64_t sqlite_accounts_version(struct store *s);
void sqlite_defer_durability(struct store *s, bool on);
void sqlite_writes_coming(struct store *s, bool on);
void sqlite_credential_writes(struct store *s);
uint64_t sqlite_commit_ticket(struct store *s);
int sqlite_durable_notify(struct store *s, uint64_t ticket, void (*done)(void *arg, bool ok), void *arg);

/* Entity operations (sqlite/accounts.c, sqlite/tokens.c, sqlite/dns.c); sqlite/ops.c puts
 * them in the backend's ops table. */
int sq_portal_create(struct store *s, const struct portal *p);
int sq_portal_get(struct store *s, const char *id, struct portal *out);
int sq_portal_list(struct store *s, json_t **out);
int sq_app_create(struct store *s, const struct app *a);
int sq_app_get(struct store *s, const char *id, struct app *out);
int sq_app_list(struct store *s, json_t **out);
int sq_app_revoke(struct store *s, const char *id);
int sq_app_set_secret(struct store *s, const char *id, const char *digest);
int sq_app_allow_add(struct store *s, const char *app_id, const char *cidr);
int sq_app_allow_list(struct store *s, const char *app_id, json_t **out);
int sq_customer_create(struct store *s, const struct customer *c);
int sq_customer_get(struct store *s, const char *id, struct customer *out);
int sq_customer_list(struct store *s, const char *portal_id, long offset, long limit, json_t **out,
                     long *total);
int sq_install_create(struct store *s, const struct installation *in);
int sq_install_find(struct store *s, const char *app_id, const char *customer_id, struct installation *out);
int sq_install_list(struct store *s, json_t **out);
int sq_code_create(struct store *s, const struct auth_code *c);
int sq_code_consume(struct store *s, const char *digest, struct auth_code *out);
int sq_token_create(struct store *s, const struct token *t);
int sq_token_get(struct store *s, const char *digest, struct token *out);
int sq_token_mark_used(struct store *s, const char *digest);
int sq_token_revoke_grant(struct store *s, const char *grant_id);
int sq_token_revoke_app(struct store *s, const char *app_id, long *count);
int sq_token_revoke_digest(struct store *s, const char *digest);
int sq_token_list(struct store *s, const char *app_id, int64_t now, json_t **out);
int sq_token_purge_expired(struct store *s, int64_t now, long *count);
int sq_asn_prefix_add(struct store *s, long long asn, const char *prefix, int max_length, const char *source);
int sq_asn_list(struct store *s, json_t **out);
int sq_asn_prefixes(struct store *s, long long asn, json_t **out);
int sq_dns_zone_create(struct store *s, struct dns_zone *z);
int sq_dns_zone_get(struct store *s, const char *customer_id, const char *name, struct dns_zone *out);
int sq_dns_zone_count(struct store *s, const char *customer_id, long *count);
int sq_dns_zone_list(struct store *s, const char *customer_id, const struct dns_zone_query *q, json_t **out,
                     long *total);
int sq_dns_zone_save(struct store *s, const struct dns_zone *z);
int sq_dns_zone_delete(struct store *s, int64_t id);
int sq_dns_key_find(struct store *s, const char *key_name, int64_t except_zone, struct dns_master *out);
int sq_dns_deploy_snapshot(struct store *s, json_t **out);
int sq_dns_deploy_mark(struct store *s, int64_t id, int64_t generation, const char *state, const char *reason,
                       const char *deployed_spec);
int sq_res_create(struct store *s, const struct res_kind *k, struct resource *r);
int sq_res_get(struct store *s, const struct res_query *q, const char *id, const char *name,
               struct resource *out);
int sq_res_get_rid(struct store *s, int64_t rid, struct resource *out);
int sq_res_version(struct store *s, int64_t rid, int64_t *version);
int sq_res_parent(struct store *s, int64_t rid, int64_t *parent_rid);
int sq_res_update(struct store *s, struct resource *r);
int sq_res_delete(struct store *s, int64_t rid, json_t **blocker);
int sq_res_list(struct store *s, const struct res_query *q, json_t **out, long *total);
int sq_res_child_ints(struct store *s, int64_t parent_rid, const char *kind, const char *member, int64_t *out,
                      size_t max, size_t *n);
int sq_blocks_set(struct store *s, int64_t rid, const struct cidr *blocks, size_t n);
int sq_blocks_get(struct store *s, int64_t rid, struct cidr **out, size_t *n);
int sq_blocks_overlapping(struct store *s, const struct cidr *c, const struct block_filter *f,
                          struct block_hit *out, size_t max, size_t *n);
int sq_blocks_uncovered(struct store *s, int64_t rid, struct block_hit *out);
int sq_catalogue_get(struct store *s, const char *key, json_t **out);
int sq_catalogue_set(struct store *s, const char *key, const json_t *value, const char *source);
int sq_catalogue_list(struct store *s, json_t **out);
int sq_ingest_token_create(struct store *s, const char *id, const char *name, const char *digest);
int sq_ingest_token_check(struct store *s, const char *digest);
int sq_ingest_token_list(struct store *s, json_t **out);
int sq_ingest_token_revoke(struct store *s, const char *id);
int sq_audit_append(struct store *s, const struct audit_entry *e);
int sq_audit_list(struct store *s, const struct audit_query *q, json_t **out);
int sq_audit_purge(struct store *s, int64_t before, long limit, long *removed);
int sq_dataplane_state_set(struct store *s, const char *plane, int64_t site_rid, const char *state,
                           const char *reason, const char *digest, const char *deployed);
int sq_dataplane_states(struct store *s, const char *plane, int64_t site_rid, json_t **out);
int sq_tel_ingest(struct store *s, const struct tel_record *recs, size_t n, struct tel_ingest_result *out);
int sq_tel_purge(struct store *s, int64_t before, long max_rows, long *removed);
/* telemetry reads: Origin Protection and CleanPipe (sqlite/tel_op.c) */
int sq_tel_events_list(struct store *s, const struct tel_event_query *q, json_t **rows, long *total);
int sq_tel_flow_downs_list(struct store *s, int64_t site_rid, int64_t from, int64_t to, enum tel_status status,
                           json_t **rows);
int sq_tel_event_stop(struct store *s, const char *alert_id, bool hosts_too, int64_t now, long *stopped);
int sq_tel_site_volume(struct store *s, int64_t site_rid, int64_t from, int64_t to, int64_t *bytes,
                       int64_t *packets);
int sq_tel_op_event_get(struct store *s, const char *family, const char *alert_id, struct tel_event_ref *out);
int sq_tel_op_minutes(struct store *s, const struct tel_minutes_query *q, struct tel_minute **out, size_t *n,
                      struct tel_minute **observed, size_t *n_observed);
int sq_tel_op_top(struct store *s, const struct tel_top_query *q, struct tel_top_row **out, size_t *n,
                  struct tel_top_row *all);
int sq_tel_op_tops(struct store *s, const struct tel_top_query *q, struct tel_top_list *lists, size_t n_lists,
                   struct tel_top_row *all);
int sq_tel_op_patterns(struct store *s, int64_t site_rid, const struct tel_range *range, int64_t from, int64_t to,
                       enum tel_pattern_order order,
                       long limit, struct tel_pattern **out, size_t *n);

/* telemetry reads: Application Protection (sqlite/tel_ap.c) */
int sq_tel_waf_events_list(struct store *s, const struct tel_waf_event_query *q, json_t **rows, long *total);
int sq_tel_waf_event_get(struct store *s, const char *event_id, struct tel_waf_event_ref *out);
int sq_tel_waf_event_counts(struct store *s, int64_t weid, int dim, long limit, json_t **rows, int64_t *all);
int sq_tel_waf_top_source(struct store *s, int64_t weid, const char *country, char ip[64]);
int sq_tel_waf_logs_list(struct store *s, int64_t weid, int64_t from, int64_t to, long offset, long limit,
                         json_t **entries, long *total);
int sq_tel_waf_logs_each(struct store *s, int64_t weid, long limit, tel_waf_entry_fn fn, void *arg);
int sq_tel_bandwidth_minutes(struct store *s, int64_t site_rid, int64_t from, int64_t to, struct tel_bw_minute **out,
                             size_t *n);


#endif
