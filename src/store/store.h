/* store.h — the storage interface. Handlers and the CLI talk to a `struct
 * store` (one connection, used by one thread at a time) through the
 * function-pointer table `struct store_ops`; sqlite.c implements it today and
 * a PostgreSQL backend can implement the same table without touching
 * handlers. Every call returns a STORE_* code. */
#ifndef PARAPET_STORE_H
#define PARAPET_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/resource.h"
#include "store/telemetry.h"
#include "store/telemetry_ap.h"
#include "store/telemetry_op.h"
#include "store/webhooks.h"

enum {
    STORE_OK = 0,
    STORE_NOT_FOUND = 1,
    STORE_CONFLICT = 2, /* unique key taken, or a state that forbids the change */
    STORE_ERROR = -1,
};

#define ID_LEN     16  /* ids are 16 lowercase hex characters */
#define DIGEST_LEN 64  /* SHA-256 digests in hex */
#define NAME_LEN   128 /* names of portals, apps, customers */
#define TEXT_LEN   256 /* other short customer fields */
#define URL_LEN    512

struct portal {
    char id[ID_LEN + 1];
    char name[NAME_LEN + 1];
};

enum app_kind { APP_PORTAL = 1, APP_INSTALLED = 2 };

struct app {
    char id[ID_LEN + 1];
    enum app_kind kind;
    char portal_id[ID_LEN + 1]; /* portal apps */
    char name[NAME_LEN + 1];
    char host_url[URL_LEN + 1]; /* installed apps */
    char secret_digest[DIGEST_LEN + 1];
    bool revoked;
    bool has_allow_list;
};

struct customer {
    char id[ID_LEN + 1];
    char portal_id[ID_LEN + 1];
    char name[NAME_LEN + 1];
    char email[TEXT_LEN + 1];
    char company[TEXT_LEN + 1];
    char phone[TEXT_LEN + 1];
    char address[TEXT_LEN + 1];
    char website[TEXT_LEN + 1];
    bool svc_ap, svc_op, svc_dns, svc_cdn;
};

struct installation {
    char id[ID_LEN + 1];
    char app_id[ID_LEN + 1];
    char customer_id[ID_LEN + 1];
    char xspe_digest[DIGEST_LEN + 1];
};

/* A single-use authorization code from the connect step. */
struct auth_code {
    char digest[DIGEST_LEN + 1];
    char app_id[ID_LEN + 1];
    char customer_id[ID_LEN + 1];
    char grant_id[ID_LEN + 1]; /* the tokens it yields share this id */
    char scope[32];
    int64_t expires_at;
};

enum token_type { TOKEN_ACCESS = 1, TOKEN_REFRESH = 2 };

struct token {
    char digest[DIGEST_LEN + 1];
    enum token_type type;
    char app_id[ID_LEN + 1];
    char portal_id[ID_LEN + 1];   /* portal-app tokens */
    char customer_id[ID_LEN + 1]; /* installed-app tokens */
    char grant_id[ID_LEN + 1];    /* authorization grant (code) this came from; "" for credit tokens */
    char scope[32];
    int64_t created_at, expires_at;
    bool used; /* refresh tokens: already exchanged */
    bool revoked;
    /* joined from the app */
    enum app_kind app_kind;
    bool app_revoked;
    bool app_has_allow_list;
};

/* ---- DNS Protection zones ---- */
enum {
    DNS_ZONE_NAME_MAX = 253,    /* canonical (Punycode) zone and TSIG key names */
    DNS_ORIGIN_NAME_MAX = 1024, /* the name as sent, UTF-8 bytes */
    DNS_MAX_MASTERS = 16,       /* master servers of one zone transfer zone */
    DNS_MAX_SIGNERS = 16,       /* multi-signer addresses of one zone */
    DNS_SECRET_MAX = 512,       /* base64 characters of a TSIG secret */
    DNS_REASON_MAX = 512,
};

/* Deploy states (stored as text; docs/decisions.md). */
#define DNS_STATE_PENDING  "pending"
#define DNS_STATE_DEPLOYED "deployed"
#define DNS_STATE_FAILED   "failed"

struct dns_master {
    char ip[64];                          /* canonical address */
    char key_name[DNS_ZONE_NAME_MAX + 1]; /* "" when the master takes no TSIG */
    char secret[DNS_SECRET_MAX + 1];
    char algorithm[16];
};

struct dns_zone {
    int64_t id;
    char customer_id[ID_LEN + 1];
    char name[DNS_ZONE_NAME_MAX + 1];
    char origin_name[DNS_ORIGIN_NAME_MAX + 1];
    bool is_zone_transfer, enable_dnssec, enable_root_cname, multi_signer_enabled;
    int n_signers;
    char signers[DNS_MAX_SIGNERS][64]; /* canonical addresses */
    int n_masters;
    struct dns_master masters[DNS_MAX_MASTERS];
    char deploy_state[16];
    char deploy_reason[DNS_REASON_MAX + 1];
};

/* What the zone list asks for. */
struct dns_zone_query {
    const char *search; /* substring of the zone name, or NULL */
    bool descending;    /* by zone name */
    long offset, limit;
};

struct store;

/* One row of the audit log (core/audit.h); texts are never NULL. */
struct audit_entry {
    int64_t ts;
    const char *request_id, *route, *method, *path;
    int status;
    const char *app_id, *portal_id, *customer_id, *client;
    const char *target, *changes; /* JSON texts */
    const char *diff;             /* JSON text: the loaded resources' changed members, before -> after */
};

/* Filters of an audit log read: NULL or 0 is no filter on that member. */
struct audit_query {
    const char *customer_id, *app_id, *route;
    int64_t since, until; /* ts in [since, until) */
    long limit;
};

struct store_ops {
    void (*close)(struct store *s);
    int (*begin)(struct store *s, bool write);
    int (*commit)(struct store *s);
    int (*rollback)(struct store *s);
    /* A value that changes after every commit that wrote data, by any
     * process or node; read it before a transaction's first read, and
     * something cached from that read stays true while the value stays the
     * same. 0: the backend cannot tell (nothing may be cached). */
    uint64_t (*data_version)(struct store *s);
    /* The same for the accounts authentication reads (portals, apps and
     * their allow lists, customers, tokens): it changes after every commit
     * that changed one of them; it may also change after others (a backend
     * with one counter gives data_version). */
    uint64_t (*accounts_version)(struct store *s);
    /* Durability. By default commit returns once the transaction is durable
     * (group commit: concurrent commits share one sync). With deferred
     * durability on, commit returns once the transaction is committed and
     * visible; commit_ticket() then gives a ticket (0: nothing to wait for,
     * e.g. nothing was written; taking it clears it) and durable_notify()
     * calls done(arg, ok) from another thread once the ticket's commit is
     * durable (ok) or can no longer be made so. durable_notify answers 0
     * when it will call back, 1 when the commit is durable already (no call),
     * -1 on failure (no call). The HTTP layer uses this to answer a write
     * only once it is durable without holding a worker thread meanwhile. */
    void (*defer_durability)(struct store *s, bool on);
    uint64_t (*commit_ticket)(struct store *s);
    int (*durable_notify)(struct store *s, uint64_t ticket, void (*done)(void *arg, bool ok), void *arg);
    /* A hint from a caller that queues writes (server/write_lane.h): on,
     * more write transactions follow at once; off, no more wait. A backend
     * that gathers commits into one sync waits for them while on (SQLite's
     * group commit); others ignore it. Calls pair up, on then off. */
    void (*writes_coming)(struct store *s, bool on);
    /* Said by a write transaction's handler before its first statement: the
     * transaction only issues credentials (the OAuth token endpoints: it
     * reads an app, a code or a token, spends a code or a token with a
     * conditional update that waits for a concurrent one, inserts tokens).
     * Such transactions need exclusion from every other write but not from
     * each other. A backend whose writes run one at a time ignores it
     * (SQLite); PostgreSQL takes its nodes' write lock in shared mode. */
    void (*credential_writes)(struct store *s);

    int (*portal_create)(struct store *s, const struct portal *p);
    int (*portal_get)(struct store *s, const char *id, struct portal *out);
    int (*portal_list)(struct store *s, json_t **out);

    int (*app_create)(struct store *s, const struct app *a);
    int (*app_get)(struct store *s, const char *id, struct app *out);
    int (*app_list)(struct store *s, json_t **out);
    int (*app_revoke)(struct store *s, const char *id);
    int (*app_set_secret)(struct store *s, const char *id, const char *digest);
    int (*app_allow_add)(struct store *s, const char *app_id, const char *cidr);
    int (*app_allow_list)(struct store *s, const char *app_id, json_t **out);

    int (*customer_create)(struct store *s, const struct customer *c);
    int (*customer_get)(struct store *s, const char *id, struct customer *out);
    /* Customers of a portal (all portals when portal_id is NULL), in creation
     * order; *out is an array of customer objects, *total the full count. */
    int (*customer_list)(struct store *s, const char *portal_id, long offset, long limit, json_t **out,
                         long *total);

    int (*install_create)(struct store *s, const struct installation *i);
    int (*install_find)(struct store *s, const char *app_id, const char *customer_id,
                        struct installation *out);
    int (*install_list)(struct store *s, json_t **out);

    int (*code_create)(struct store *s, const struct auth_code *c);
    /* Marks the code used and returns it. STORE_CONFLICT when it was used
     * before (the caller then revokes the grant's tokens). */
    int (*code_consume)(struct store *s, const char *digest, struct auth_code *out);

    int (*token_create)(struct store *s, const struct token *t);
    int (*token_get)(struct store *s, const char *digest, struct token *out);
    /* Marks an unused refresh token used; STORE_CONFLICT if it already was. */
    int (*token_mark_used)(struct store *s, const char *digest);
    int (*token_revoke_grant)(struct store *s, const char *grant_id);
    int (*token_revoke_app)(struct store *s, const char *app_id, long *count);
    int (*token_revoke_digest)(struct store *s, const char *digest);
    int (*token_list)(struct store *s, const char *app_id, int64_t now, json_t **out);
    int (*token_purge_expired)(struct store *s, int64_t now, long *count);

    int (*asn_prefix_add)(struct store *s, long long asn, const char *prefix, int max_length,
                          const char *source);
    int (*asn_list)(struct store *s, json_t **out);
    /* Prefixes registered for an ASN: an array of {"prefix","max_length"}. */
    int (*asn_prefixes)(struct store *s, long long asn, json_t **out);

    /* DNS zones. A zone belongs to one customer; the get/list calls see only
     * that customer's zones. create picks the random id (z->id) and answers
     * STORE_CONFLICT when the name is taken on the platform. save writes the
     * settings and the master servers, and marks the zone pending. */
    int (*dns_zone_create)(struct store *s, struct dns_zone *z);
    int (*dns_zone_get)(struct store *s, const char *customer_id, const char *name, struct dns_zone *out);
    int (*dns_zone_count)(struct store *s, const char *customer_id, long *count);
    /* A page of {id, zone_name, is_zone_transfer, enable_dnssec,
     * enable_root_cname} objects, and the number of zones matching. */
    int (*dns_zone_list)(struct store *s, const char *customer_id, const struct dns_zone_query *q,
                         json_t **out, long *total);
    int (*dns_zone_save)(struct store *s, const struct dns_zone *z);
    int (*dns_zone_delete)(struct store *s, int64_t id);
    /* How another zone (not except_zone) uses a TSIG key name: fills *out
     * and answers STORE_OK, or STORE_NOT_FOUND when no other zone does. */
    int (*dns_key_find)(struct store *s, const char *key_name, int64_t except_zone, struct dns_master *out);
    /* Every zone, for the deployer: an array of {id, generation, state,
     * reason, customer_id, spec, deployed} where spec is the zone as it is now and deployed the
     * spec last served (null if never): {name, zone_transfer, dnssec,
     * root_cname, multi_signer: {enabled, ip: [...]}, masters: [{ip,
     * key_name, secret, algorithm}]}. */
    int (*dns_deploy_snapshot)(struct store *s, json_t **out);
    /* Records the outcome of deploying a zone's `generation` (a newer
     * change leaves the zone pending): state, the reason when it failed, and
     * the spec now served (NULL keeps the previous one). */
    int (*dns_deploy_mark)(struct store *s, int64_t id, int64_t generation, const char *state,
                           const char *reason, const char *deployed_spec);

    /* ---- generic resources (store/resource.h, docs/architecture.md) ----
     * create: fills r->rid, r->id (unless given), timestamps and version 1;
     * STORE_CONFLICT when the name is taken in its scope; STORE_NOT_FOUND
     * when the parent does not exist or is another customer's. */
    int (*res_create)(struct store *s, const struct res_kind *k, struct resource *r);
    /* The one resource of q->kind with this public id (or, with id NULL, this
     * name) that q's filters see; q's offset/limit are ignored. */
    int (*res_get)(struct store *s, const struct res_query *q, const char *id, const char *name,
                   struct resource *out);
    /* The resource with this store key, whatever its kind and customer (for
     * code that holds a key from the store itself, e.g. a telemetry row). */
    int (*res_get_rid)(struct store *s, int64_t rid, struct resource *out);
    /* The stored version of the resource with this key (STORE_NOT_FOUND when
     * it is gone): every update bumps it, so an unchanged version is an
     * unchanged resource (the audit's before/after, core/audit.c). */
    int (*res_version)(struct store *s, int64_t rid, int64_t *version);
    /* The key of the parent of the resource with this key (0: none);
     * STORE_NOT_FOUND when it is gone. Reads no document. */
    int (*res_parent)(struct store *s, int64_t rid, int64_t *parent_rid);
    /* Writes r->name and r->doc when r->version is still the stored version
     * (STORE_CONFLICT otherwise, or when the name is taken); bumps
     * r->version and r->updated_at. */
    int (*res_update)(struct store *s, struct resource *r);
    /* Deletes the resource, what goes with it and their address blocks; when
     * a descendant restricts the delete, STORE_CONFLICT and *blocker (if not
     * NULL) tells which one ({"kind","id"}, new reference). */
    int (*res_delete)(struct store *s, int64_t rid, json_t **blocker);
    /* A page of the resources q sees, in creation order, as an array of
     * {"rid","id","kind","customer_id","parent_rid","name","doc","created_at",
     * "updated_at","version"}; *total counts them all. With a parent
     * (q->parent_rid > 0) only q->customer_id filters further: the caller
     * has checked the parent. */
    int (*res_list)(struct store *s, const struct res_query *q, json_t **out, long *total);
    /* The integer member `member` (a plain name) of the document of each
     * child of parent_rid of the kind, in creation order, at most max (*n of
     * them); -1 for a document without one. Reads no document into JSON:
     * for a rule that needs one member of every sibling (WAF rule slots). */
    int (*res_child_ints)(struct store *s, int64_t parent_rid, const char *kind, const char *member,
                          int64_t *out, size_t max, size_t *n);

    /* Address blocks: set replaces the blocks the resource holds (in the
     * given order); get returns them (malloc'd array, *n of them). */
    int (*blocks_set)(struct store *s, int64_t rid, const struct cidr *blocks, size_t n);
    int (*blocks_get)(struct store *s, int64_t rid, struct cidr **out, size_t *n);
    /* Blocks that f sees and that overlap c: up to max hits, *n found. */
    int (*blocks_overlapping)(struct store *s, const struct cidr *c, const struct block_filter *f,
                              struct block_hit *out, size_t max, size_t *n);
    /* A block held by a descendant of `rid` that lies inside no block of
     * `rid` itself: STORE_OK with *out filled, or STORE_NOT_FOUND when all
     * are covered (an update of a site's blocks must keep its networks and
     * hosts covered). */
    int (*blocks_uncovered)(struct store *s, int64_t rid, struct block_hit *out);

    /* ---- the operator's catalogue: named JSON values ---- */
    int (*catalogue_get)(struct store *s, const char *key, json_t **out);
    /* source: "default" (shipped) or "operator" */
    int (*catalogue_set)(struct store *s, const char *key, const json_t *value, const char *source);
    /* [{"key","source","updated_at"}] */
    int (*catalogue_list)(struct store *s, json_t **out);

    /* ---- ingest credentials (operator side, docs/telemetry.md) ---- */
    int (*ingest_token_create)(struct store *s, const char *id, const char *name, const char *digest);
    /* STORE_OK when the digest names a token that is not revoked. */
    int (*ingest_token_check)(struct store *s, const char *digest);
    int (*ingest_token_list)(struct store *s, json_t **out); /* [{"id","name","created_at","revoked"}] */
    int (*ingest_token_revoke)(struct store *s, const char *id);

    /* ---- data planes: each site's deploy state (sqlite/dataplane.c, docs/dataplane.md) ----
     * plane: "fastnetmon", "bird", "nginx"; state: "pending", "deployed" or
     * "failed" (reason: the checker's message); digest names the fragment the
     * state is about; deployed (NULL: keep the stored one) is the last
     * fragment that passed and was installed. A deleted site's rows go with it. */
    int (*dataplane_state_set)(struct store *s, const char *plane, int64_t site_rid, const char *state,
                               const char *reason, const char *digest, const char *deployed);
    /* [{"plane","site_rid","site_kind","site_id","customer_id","state","reason","digest",
     * "deployed","updated_at"}]; plane NULL: every plane; site_rid 0: every site. */
    int (*dataplane_states)(struct store *s, const char *plane, int64_t site_rid, json_t **out);

    /* ---- the audit log (sqlite/audit.c, core/audit.h) ----
     * append: in the write transaction of the write it records; list: rows
     * in commit order [{"seq","ts","request_id","route","method","path",
     * "status","app_id","portal_id","customer_id","client","target",
     * "changes"}] (target, changes: JSON texts); purge: at most `limit` rows
     * older than `before`, in the open write transaction. */
    int (*audit_append)(struct store *s, const struct audit_entry *e);
    int (*audit_list)(struct store *s, const struct audit_query *q, json_t **out);
    int (*audit_purge)(struct store *s, int64_t before, long limit, long *removed);

    /* ---- telemetry: writes (sqlite/tel_ingest.c) ----
     * Stores attributed records in the open write transaction: duplicates
     * (by their ids) are counted and change nothing, except that a DDoS or
     * flow-down event's end_time closes it and a larger peak raises it;
     * flows feed the roll-ups; WAF entries are grouped into WAF events.
     * A batch ends with a call of no records (recs NULL, n 0), before the
     * caller commits: a backend may keep sums until then. */
    int (*tel_ingest)(struct store *s, const struct tel_record *recs, size_t n, struct tel_ingest_result *out);
    /* Removes telemetry older than `before` and rows of sites that no longer
     * exist, at most `max_rows` rows per call; *removed counts them. */
    int (*tel_purge)(struct store *s, int64_t before, long max_rows, long *removed);

    /* ---- telemetry: Origin Protection and CleanPipe dashboard reads (sqlite/tel_op.c) ---- */
    /* The events q selects, newest first (start_time, then alert_id): rows
     * {alert_id, attack_type, start_time, end_time (null while ongoing),
     * max_bps, max_pps, severity (enum tel_severity), site_ip, profile_name,
     * profile_desc, p_type, site_rid}; *total counts them before paging. */
    int (*tel_events_list)(struct store *s, const struct tel_event_query *q, json_t **rows, long *total);
    /* A site's flow-down events overlapping [from, to], newest first: rows
     * {alert_id, router_name, start_time, end_time (null while ongoing)}. */
    int (*tel_flow_downs_list)(struct store *s, int64_t site_rid, int64_t from, int64_t to,
                               enum tel_status status, json_t **rows);
    /* Closes the ongoing event alert_id at `now` (stopped by the API) and,
     * with hosts_too, the ongoing host events of its site whose addresses lie
     * inside its own; *stopped counts them (0: it was not ongoing). */
    int (*tel_event_stop)(struct store *s, const char *alert_id, bool hosts_too, int64_t now, long *stopped);
    /* Bytes and packets of a site's flows in the minutes [from, to). */
    int (*tel_site_volume)(struct store *s, int64_t site_rid, int64_t from, int64_t to, int64_t *bytes,
                           int64_t *packets);
    /* The event of `family` with this alert_id whose site still exists
     * (store/telemetry_op.h). */
    int (*tel_op_event_get)(struct store *s, const char *family, const char *alert_id, struct tel_event_ref *out);
    /* Per-minute flow sums, ascending by minute (*out malloc'd, *n of them);
     * with q->observed_too also those of the observations alone (*observed,
     * *n_observed; untouched otherwise, and they may be NULL then). */
    int (*tel_op_minutes)(struct store *s, const struct tel_minutes_query *q, struct tel_minute **out, size_t *n,
                          struct tel_minute **observed, size_t *n_observed);
    /* The top keys of a dimension (*out malloc'd, *n of them) and, unless
     * all is NULL, the sums over every key (*all). */
    int (*tel_op_top)(struct store *s, const struct tel_top_query *q, struct tel_top_row **out, size_t *n,
                      struct tel_top_row *all);
    /* Several top lists of one window (q's dim, by_packets and limit
     * unused: each list's own), as tel_op_top gives each; the raw flows
     * read once where the backend can. */
    int (*tel_op_tops)(struct store *s, const struct tel_top_query *q, struct tel_top_list *lists, size_t n_lists,
                       struct tel_top_row *all);
    /* The `limit` largest traffic patterns (in `order`) toward range in [from, to). */
    int (*tel_op_patterns)(struct store *s, int64_t site_rid, const struct tel_range *range, int64_t from,
                           int64_t to, enum tel_pattern_order order, long limit, struct tel_pattern **out,
                           size_t *n);

    /* ---- telemetry: Application Protection dashboard reads (sqlite/tel_ap.c) ---- */
    /* A page of q's events, newest first: [{"weid","event_id","site_rid","domain_name",
     * "domain_port_id","start_time","end_time","attack_count","severity"}]; *total counts all. */
    int (*tel_waf_events_list)(struct store *s, const struct tel_waf_event_query *q, json_t **rows, long *total);
    int (*tel_waf_event_get)(struct store *s, const char *event_id, struct tel_waf_event_ref *out);
    /* The `limit` largest counts of a dimension (enum tel_waf_dim) of an
     * event, [{"key","count"}] largest first (then by key); *all sums every key. */
    int (*tel_waf_event_counts)(struct store *s, int64_t weid, int dim, long limit, json_t **rows, int64_t *all);
    /* The most frequent source address of the event's entries from `country` ("" none). */
    int (*tel_waf_top_source)(struct store *s, int64_t weid, const char *country, char ip[64]);
    /* A page of the event's entries with from <= timestamp <= to, oldest
     * first, as JSON objects; *total counts all of them. */
    int (*tel_waf_logs_list)(struct store *s, int64_t weid, int64_t from, int64_t to, long offset, long limit,
                             json_t **entries, long *total);
    /* Up to `limit` entries of the event, oldest first, one call each. */
    int (*tel_waf_logs_each)(struct store *s, int64_t weid, long limit, tel_waf_entry_fn fn, void *arg);
    /* The minutes of a site's bandwidth samples in [from, to), ascending
     * (*out malloc'd; minutes without samples are absent). */
    int (*tel_bandwidth_minutes)(struct store *s, int64_t site_rid, int64_t from, int64_t to,
                                 struct tel_bw_minute **out, size_t *n);
    /* ---- webhooks (sqlite/webhooks.c, pgsql/webhooks.c; store/webhooks.h) ----
     * Endpoints belong to one customer: get, update and delete see only
     * that customer's (STORE_NOT_FOUND otherwise). list: the customer's
     * endpoints in creation order, [{"id","url","events","description",
     * "enabled","created_at","updated_at"}] (no secret). delete takes the
     * endpoint's deliveries and attempts with it. */
    int (*webhook_create)(struct store *s, const struct webhook *w);
    int (*webhook_get)(struct store *s, const char *customer_id, const char *id, struct webhook *out);
    int (*webhook_list)(struct store *s, const char *customer_id, json_t **out);
    int (*webhook_update)(struct store *s, const struct webhook *w);
    int (*webhook_delete)(struct store *s, const char *customer_id, const char *id);
    /* A page of an endpoint's deliveries, newest first: [{"id","event_id","type","state","attempts",
     * "last_status","last_error","next_at","created_at","done_at","replay_of"}]; *total counts all. */
    int (*webhook_deliveries)(struct store *s, const char *endpoint_id, const struct webhook_delivery_query *q,
                              json_t **out, long *total);
    /* One delivery of the endpoint, as a deliveries row plus "resource", "payload" (JSON text),
     * "event_created_at" and "attempts_log": [{"n","at","duration_ms","status","error","response"}]. */
    int (*webhook_delivery_get)(struct store *s, const char *endpoint_id, const char *delivery_id,
                                json_t **out);
    /* A new pending delivery (id new_id) of the event delivery_id delivered,
     * to the same endpoint, due now. */
    int (*webhook_replay)(struct store *s, const char *endpoint_id, const char *delivery_id, const char *new_id);
    /* An event for one endpoint only (type bit 0, never fanned out) and its
     * delivery new_id: the ping an owner sends to try a receiver. */
    int (*webhook_enqueue_one)(struct store *s, const char *endpoint_id, const char *event_id, const char *type,
                               const char *payload, const char *new_id);
    /* The earliest next attempt time (unix ms) of a pending delivery, or
     * STORE_NOT_FOUND when none is pending (a due one may still be held
     * back or leased: webhook_claim decides; this only says when to look). */
    int (*webhook_next_due)(struct store *s, int64_t *next_ms);
    /* In the open write transaction: takes up to `limit` deliveries due at
     * now_ms whose resource has no earlier pending delivery to the same
     * endpoint, and leases them until now_ms + lease_ms. Rows {"seq","id","created_at",
     * "attempts","endpoint_id","url","secret","event_id","type","payload",
     * "event_created_at","customer_id"}, the longest due first. */
    int (*webhook_claim)(struct store *s, int64_t now_ms, int64_t lease_ms, long limit, json_t **out);
    /* Records an attempt and the delivery's new state (lease released). */
    int (*webhook_attempt_record)(struct store *s, const struct webhook_attempt *a);
    /* Removes finished deliveries (and their attempts) done before `before`
     * (unix s) and events left without deliveries, at most `limit` rows. */
    int (*webhook_purge)(struct store *s, int64_t before, long limit, long *removed);
};


struct store {
    const struct store_ops *ops;
};

/* Opening a store: a backend by name ("sqlite") and its location. */
struct store_config {
    const char *backend;
    const char *path; /* sqlite: database file */
    int cache_kb;     /* page cache of each connection the process opens; 0: the backend's default.
                         Bulk loaders (parapet ingest) give it more: the roll-up indexes stay in memory */
};

/* store_open(), which picks the backend, is in store/select/select.h: the
 * one room above both backends. */

#endif
