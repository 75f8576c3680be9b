/* pgsql/db.h — what the PostgreSQL backend's files share: the connection,
 * prepared statements cached by their SQL text's address, parameters and
 * column helpers. Every operation of store.h has a pg_ twin here, in the
 * pgsql_*.c file named like its sqlite_*.c counterpart.
 *
 * Semantics kept from the SQLite backend (docs/deploy.md):
 * - A write transaction holds one advisory lock from its first statement
 *   (sent with it) to its end, so write transactions of every node run one
 *   at a time, as SQLite's do: the handlers' count-then-insert and
 *   check-then-update rules stay exact without retries. Transactions
 *   that only issue credentials hold it in shared mode: they run beside
 *   each other, never beside another write (store.h, credential_writes).
 * - A read transaction is REPEATABLE READ: one snapshot, like SQLite's.
 * - data_version is a sequence bumped after each commit that wrote: a cache
 *   entry tagged with the value read before its read is dropped by the next
 *   write of any node (the same contract as data_version.h). Read
 *   transactions take it from the process's watcher (version_watch.h), when
 *   fresh, and send BEGIN with their first statement: a reply from the
 *   caches costs no round trip. */
#ifndef PARAPET_PGSQL_DB_H
#define PARAPET_PGSQL_DB_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "store/store.h"

/* Held by every write transaction until it ends ("PRPT" and a role);
 * in shared mode by those that only issue credentials (store.h,
 * credential_writes). */
#define PG_WRITE_LOCK_KEY "1347571796002"
#define PG_WRITE_LOCK_SQL "SELECT pg_advisory_xact_lock(" PG_WRITE_LOCK_KEY ")"

enum { PG_STMT_SLOTS = 512, PG_MAX_PARAMS = 24, PG_LATER_MAX = 4 };

/* Parameters of one statement, sent as text (bytes as binary). With
 * binary_results the result comes in binary too: bytea as its bytes
 * (pg_bytes), not as hex text to unescape; every column must then be read
 * with pg_int, pg_text or pg_bytes (integers, booleans, text and bytea). */
struct pg_params {
    int n;
    const char *values[PG_MAX_PARAMS];
    int lengths[PG_MAX_PARAMS];
    int formats[PG_MAX_PARAMS];
    char num[PG_MAX_PARAMS][24];
    bool binary_results;
    /* planned with these values each time it runs, not prepared once: for
     * a statement whose best plan depends on how much the tables hold (a
     * generic plan made while they were small can stay bad) */
    bool plan_each_time;
};

/* A statement of a write transaction kept to be sent with the next one
 * (pg_exec_later); its values live in buf. */
struct pg_later {
    const char *sql;
    struct pg_params p;
    char *buf;
};

struct pg_store {
    struct store base;
    PGconn *conn;
    char *conninfo;
    bool in_tx, wrote, write_tx;
    /* a transaction whose BEGIN waits for its first statement (a write's
     * goes with its write lock and counter read: pgsql/db.c, exec_in_tx) */
    bool begin_pending;
    /* a write transaction whose write lock waits for its first statement:
     * code that uses `conn` directly in a write transaction (COPY) must run
     * one pg_query first */
    bool lock_pending;
    bool lock_shared;   /* and takes it in shared mode (credential_writes) */
    bool deferred;   /* durability through the group flush (pgsql/flush.c) */
    uint64_t ticket; /* of the last deferred commit that wrote: a WAL position */
    struct timespec began; /* of the write transaction (metrics) */
    uint64_t version;      /* data_version read before this transaction began */
    struct pg_later later[PG_LATER_MAX];
    int nlater;
    struct pg_copy *copy; /* a COPY under way (pgsql/copy.c), or NULL */
    /* prepared statements of this connection: slot i is named "s<i>" */
    const char *prepared[PG_STMT_SLOTS];
};

#define PG(s) ((struct pg_store *)(s))

void pp_text(struct pg_params *p, const char *v); /* NULL: SQL NULL */
void pp_int(struct pg_params *p, int64_t v);
void pp_bytes(struct pg_params *p, const void *b, int len);
/* LIMIT and OFFSET as SQLite takes them: a negative limit is none (NULL),
 * a negative offset is 0 (PostgreSQL refuses both). */
void pp_limit(struct pg_params *p, long limit);
void pp_offset(struct pg_params *p, long offset);

/* COPY … FROM STDIN (`sql`) of rows[0..len) (COPY's data, complete; taken:
 * freed by the store) sent by a thread of its own while the caller goes on
 * (pgsql/copy.c). The connection's next statement, COMMIT or ROLLBACK waits
 * for it first, and fails when it failed or did not store `expected` rows
 * (the transaction then commits nothing). STORE_OK when it started. */
int pg_copy_start(struct store *s, const char *sql, char *rows, size_t len, long expected);
/* Waits for the COPY under way, if any: STORE_OK when it stored its rows. */
int pg_copy_wait(struct store *s);

/* Runs `sql` (a string constant: prepared once per connection, keyed by its
 * address) with p (NULL: none). The result (the caller PQclear()s it), or
 * NULL with *rc STORE_CONFLICT on a constraint violation (unique, foreign
 * key, check: the transaction is then aborted) or STORE_ERROR (logged). */
PGresult *pg_query(struct store *s, const char *sql, const struct pg_params *p, int *rc);
/* A read that calls fn(arg, res, row) for each row of its result. In a
 * read transaction the rows come one by one as the server sends them
 * (libpq's single-row mode: row 0 of each res), so that the caller's work
 * on a large answer overlaps the server's sending and no whole result is
 * held; elsewhere as pg_query. fn returns 0 to go on. STORE_OK, or
 * STORE_ERROR (a failed statement, or fn's refusal). */
int pg_each_row(struct store *s, const char *sql, const struct pg_params *p,
                int (*fn)(void *arg, const PGresult *res, int row), void *arg);
/* A statement run for its effect: STORE_OK / CONFLICT / ERROR; *changed
 * (may be NULL) gets the rows it inserted, updated or deleted. */
int pg_exec(struct store *s, const char *sql, const struct pg_params *p, long *changed);
/* A write whose caller needs nothing but its success: in a write
 * transaction that has sent its first statement it is kept and sent with
 * the next statement or the COMMIT (one round trip fewer), and STORE_OK is
 * answered now; its failure fails that statement (STORE_ERROR) or the
 * COMMIT. Elsewhere it runs at once (pg_exec). Code that uses `conn`
 * directly (COPY) must run one pg_query first. */
int pg_exec_later(struct store *s, const char *sql, const struct pg_params *p);
/* A statement that looks for one row: STORE_OK with *out (PQclear it),
 * STORE_NOT_FOUND when it returned none, or an error. */
int pg_one(struct store *s, const char *sql, const struct pg_params *p, PGresult **out);
/* The rows as an array of objects keyed by column name: integers and
 * booleans (0/1) as integers, NULL as null, everything else as strings. */
int pg_rows_json(struct store *s, const char *sql, const struct pg_params *p, json_t **out);

/* An integer or boolean column, in text or binary results. */
int64_t pg_int(const PGresult *r, int row, int col);
/* A bytea column of binary results (pg_params.binary_results): its bytes
 * and *len, or NULL when the results are text. */
const uint8_t *pg_bytes(const PGresult *r, int row, int col, size_t *len);
/* Copies column col of row into dst[size] ("" when NULL). */
void pg_text(const PGresult *r, int row, int col, char *dst, size_t size);

/* Connection-level operations (pgsql/db.c). */
void pg_close(struct store *s);
int pg_begin(struct store *s, bool write);
int pg_commit(struct store *s);
int pg_rollback(struct store *s);
uint64_t pg_data_version(struct store *s);
void pg_defer_durability(struct store *s, bool on);
void pg_writes_coming(struct store *s, bool on);
void pg_credential_writes(struct store *s);
uint64_t pg_commit_ticket(struct store *s);
int pg_durable_notify(struct store *s, uint64_t ticket, void (*done)(void *arg, bool ok), void *arg);

/* Entity operations, one file per family as in the SQLite backend. */
int pg_portal_create(struct store *s, const struct portal *p);
int pg_portal_get(struct store *s, const char *id, struct portal *out);
int pg_portal_list(struct store *s, json_t **out);
int pg_app_create(struct store *s, const struct app *a);
int pg_app_get(struct store *s, const char *id, struct app *out);
int pg_app_list(struct store *s, json_t **out);
int pg_app_revoke(struct store *s, const char *id);
int pg_app_set_secret(struct store *s, const char *id, const char *digest);
int pg_app_allow_add(struct store *s, const char *app_id, const char *cidr);
int pg_app_allow_list(struct store *s, const char *app_id, json_t **out);
int pg_customer_create(struct store *s, const struct customer *c);
int pg_customer_get(struct store *s, const char *id, struct customer *out);
int pg_customer_list(struct store *s, const char *portal_id, long offset, long limit, json_t **out,
                     long *total);
int pg_install_create(struct store *s, const struct installation *in);
int pg_install_find(struct store *s, const char *app_id, const char *customer_id, struct installation *out);
int pg_install_list(struct store *s, json_t **out);
int pg_code_create(struct store *s, const struct auth_code *c);
int pg_code_consume(struct store *s, const char *digest, struct auth_code *out);
int pg_token_create(struct store *s, const struct token *t);
int pg_token_get(struct store *s, const char *digest, struct token *out);
int pg_token_mark_used(struct store *s, const char *digest);
int pg_token_revoke_grant(struct store *s, const char *grant_id);
int pg_token_revoke_app(struct store *s, const char *app_id, long *count);
int pg_token_revoke_digest(struct store *s, const char *digest);
int pg_token_list(struct store *s, const char *app_id, int64_t now, json_t **out);
int pg_token_purge_expired(struct store *s, int64_t now, long *count);
int pg_asn_prefix_add(struct store *s, long long asn, const char *prefix, int max_length, const char *source);
int pg_asn_list(struct store *s, json_t **out);
int pg_asn_prefixes(struct store *s, long long asn, json_t **out);
int pg_dns_zone_create(struct store *s, struct dns_zone *z);
int pg_dns_zone_get(struct store *s, const char *customer_id, const char *name, struct dns_zone *out);
int pg_dns_zone_count(struct store *s, const char *customer_id, long *count);
int pg_dns_zone_list(struct store *s, const char *customer_id, const struct dns_zone_query *q, json_t **out,
                     long *total);
int pg_dns_zone_save(struct store *s, const struct dns_zone *z);
int pg_dns_zone_delete(struct store *s, int64_t id);
int pg_dns_key_find(struct store *s, const char *key_name, int64_t except_zone, struct dns_master *out);
int pg_dns_deploy_snapshot(struct store *s, json_t **out);
int pg_dns_deploy_mark(struct store *s, int64_t id, int64_t generation, const char *state, const char *reason,
                       const char *deployed_spec);
int pg_res_create(struct store *s, const struct res_kind *k, struct resource *r);
int pg_res_get(struct store *s, const struct res_query *q, const char *id, const char *name,
               struct resource *out);
int pg_res_get_rid(struct store *s, int64_t rid, struct resource *out);
int pg_res_version(struct store *s, int64_t rid, int64_t *version);
int pg_res_parent(struct store *s, int64_t rid, int64_t *parent_rid);
int pg_res_update(struct store *s, struct resource *r);
int pg_res_delete(struct store *s, int64_t rid, json_t **blocker);
int pg_res_list(struct store *s, const struct res_query *q, json_t **out, long *total);
int pg_res_child_ints(struct store *s, int64_t parent_rid, const char *kind, const char *member, int64_t *out,
                      size_t max, size_t *n);
int pg_blocks_set(struct store *s, int64_t rid, const struct cidr *blocks, size_t n);
int pg_blocks_get(struct store *s, int64_t rid, struct cidr **out, size_t *n);
int pg_blocks_overlapping(struct store *s, const struct cidr *c, const struct block_filter *f,
                          struct block_hit *out, size_t max, size_t *n);
int pg_blocks_uncovered(struct store *s, int64_t rid, struct block_hit *out);
int pg_catalogue_get(struct store *s, const char *key, json_t **out);
int pg_catalogue_set(struct store *s, const char *key, const json_t *value, const char *source);
int pg_catalogue_list(struct store *s, json_t **out);
int pg_ingest_token_create(struct store *s, const char *id, const char *name, const char *digest);
int pg_ingest_token_check(struct store *s, const char *digest);
int pg_ingest_token_list(struct store *s, json_t **out);
int pg_ingest_token_revoke(struct store *s, const char *id);
int pg_audit_append(struct store *s, const struct audit_entry *e);
int pg_audit_list(struct store *s, const struct audit_query *q, json_t **out);
int pg_audit_purge(struct store *s, int64_t before, long limit, long *removed);
int pg_dataplane_state_set(struct store *s, const char *plane, int64_t site_rid, const char *state,
                           const char *reason, const char *digest, const char *deployed);
int pg_dataplane_states(struct store *s, const char *plane, int64_t site_rid, json_t **out);

/* telemetry (pgsql_tel_*.c) */
int pg_tel_ingest(struct store *s, const struct tel_record *recs, size_t n, struct tel_ingest_result *out);
int pg_tel_purge(struct store *s, int64_t before, long max_rows, long *removed);
int pg_tel_events_list(struct store *s, const struct tel_event_query *q, json_t **rows, long *total);
int pg_tel_flow_downs_list(struct store *s, int64_t site_rid, int64_t from, int64_t to, enum tel_status status,
                           json_t **rows);
int pg_tel_event_stop(struct store *s, const char *alert_id, bool hosts_too, int64_t now, long *stopped);
int pg_tel_site_volume(struct store *s, int64_t site_rid, int64_t from, int64_t to, int64_t *bytes,
                       int64_t *packets);
int pg_tel_op_event_get(struct store *s, const char *family, const char *alert_id, struct tel_event_ref *out);
int pg_tel_op_minutes(struct store *s, const struct tel_minutes_query *q, struct tel_minute **out, size_t *n,
                      struct tel_minute **observed, size_t *n_observed);
int pg_tel_op_tops(struct store *s, const struct tel_top_query *q, struct tel_top_list *lists, size_t n_lists,
                   struct tel_top_row *all);
int pg_tel_op_top(struct store *s, const struct tel_top_query *q, struct tel_top_row **out, size_t *n,
                  struct tel_top_row *all);
int pg_tel_op_patterns(struct store *s, int64_t site_rid, const struct tel_range *range, int64_t from, int64_t to,
                       enum tel_pattern_order order, long limit, struct tel_pattern **out, size_t *n);
int pg_tel_waf_events_list(struct store *s, const struct tel_waf_event_query *q, json_t **rows, long *total);
int pg_tel_waf_event_get(struct store *s, const char *event_id, struct tel_waf_event_ref *out);
int pg_tel_waf_event_counts(struct store *s, int64_t weid, int dim, long limit, json_t **rows, int64_t *all);
int pg_tel_waf_top_source(struct store *s, int64_t weid, const char *country, char ip[64]);
int pg_tel_waf_logs_list(struct store *s, int64_t weid, int64_t from, int64_t to, long offset, long limit,
                         json_t **entries, long *total);
int pg_tel_waf_logs_each(struct store *s, int64_t weid, long limit, tel_waf_entry_fn fn, void *arg);
int pg_tel_bandwidth_minutes(struct store *s, int64_t site_rid, int64_t from, int64_t to, struct tel_bw_minute **out,
                             size_t *n);

#endif
