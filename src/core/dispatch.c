/* dispatch.c — see dispatch.h. Order of checks: unknown path (404), wrong
 * method (405), body encoding (415), undecodable body (400/413), token
 * (401/403), tenancy (404), fields (400), then the handler. */
#include "core/audit.h"
#include "core/dispatch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/abuse.h"
#include "core/auth.h"
#include "core/reply_cache.h"
#include "core/route.h"
#include "core/router.h"

static struct router *router;

static void (*commit_hook)(const char *path);

void dispatch_on_commit(void (*fn)(const char *path))
{
    commit_hook = fn;
}

int dispatch_init(void)
{
    const char *why = NULL;
    router = router_build(routes, routes_count, &why);
    if (!router || abuse_init() != 0) {
        fprintf(stderr, "parapet: route table: %s\n", why);
        return -1;
    }
    return 0;
}

void dispatch_shutdown(void)
{
    router_free(router);
    router = NULL;
    abuse_shutdown();
}

static unsigned body_bit(enum body_kind k)
{
    switch (k) {
    case BODY_FORM: return ENC_URLENCODED;
    case BODY_MULTIPART: return ENC_MULTIPART;
    case BODY_JSON: return ENC_JSON;
    case BODY_NDJSON: return ENC_NDJSON;
    default: return 0;
    }
}

static const char *accepted_words(unsigned enc)
{
    if (enc == ENC_JSON)
        return "a JSON body (Content-Type: application/json)";
    if (enc == ENC_FORM)
        return "a form body (application/x-www-form-urlencoded or multipart/form-data)";
    if (enc == ENC_MULTIPART)
        return "a multipart/form-data body";
    if (enc == ENC_URLENCODED)
        return "an application/x-www-form-urlencoded body";
    if (enc == (ENC_JSON | ENC_NDJSON))
        return "NDJSON (application/x-ndjson) or a JSON array (application/json)";
    return "no request body";
}

/* The body's content type (415), then whether the query and body could be
 * decoded at all (400/413). */
static int check_input(struct req *r)
{
    unsigned enc = r->route->encodings;
    if (r->body_kind != BODY_NONE && (r->body_kind == BODY_OTHER || !(enc & body_bit(r->body_kind)))) {
        reply_error(r, E_MEDIA_TYPE, "Content-Type: this endpoint takes %s", accepted_words(enc));
        return -1;
    }
    if (r->input_error) {
        reply_error(r, r->input_error_code, "%s", r->input_error);
        return -1;
    }
    if (r->body_is_array && !(r->route->flags & ROUTE_RAW_BODY)) {
        reply_error(r, E_MALFORMED_BODY, "body must be a JSON object");
        return -1;
    }
    return 0;
}

/* Takes access_token out of the query (or, where the route allows, the
 * form): it is the dispatcher's, never a handler field. */
static int take_token(struct req *r, const char **token)
{
    *token = NULL;
    json_t *sources[2] = {r->query_fields, NULL};
    if (r->route->flags & ROUTE_TOKEN_IN_FORM && r->body_kind != BODY_JSON)
        sources[1] = r->body_fields;
    for (int i = 0; i < 2; i++) {
        json_t *v = sources[i] ? json_object_get(sources[i], "access_token") : NULL;
        if (!v)
            continue;
        if (!json_is_string(v) || *token) {
            reply_error(r, E_FIELD_REPEATED, "access_token: must be given once");
            return -1;
        }
        *token = arena_strdup(&r->arena, json_string_value(v));
        json_object_del(sources[i], "access_token");
    }
    return 0;
}

static int check_fields(struct req *r)
{
    const char *file_names[16];
    size_t nf = 0;
    for (const struct upload_file *f = r->files; f && nf < 15; f = f->next)
        file_names[nf++] = f->field;
    file_names[nf] = NULL;
    struct spec_error e;
    spec_check(r->route->fields, r->query_fields, r->body_fields, r->body_kind == BODY_JSON, r->path_params,
               file_names, &r->fields, &e);
    if (e.err != E_OK) {
        reply_error(r, e.err, "%s", e.message);
        return -1;
    }
    return 0;
}

/* Whether the request may change stored data: by its method, or by its
 * route (a GET with side effects such as /oauth/connect issuing a code). */
static bool writes(const struct req *r)
{
    return (r->method != M_GET && r->method != M_HEAD) || (r->route->flags & ROUTE_WRITES);
}

static int begin(struct req *r, bool write)
{
    if (r->store->ops->begin(r->store, write) != STORE_OK) {
        /* a database that is down or restarting (PostgreSQL), a write lock
         * not granted in time: nothing was done, the client may retry */
        reply_error(r, E_UNAVAILABLE, "the store is not reachable; try again shortly");
        return -1;
    }
    return 0;
}

/* Runs the handler in a transaction (the one already open, if `open`):
 * committed unless the reply is an error, one transaction per request. */
static void run_handler(struct req *r, bool open)
{
    struct store *s = r->store;
    bool write = writes(r);
    if (!open && begin(r, write) != 0)
        return;
    r->route->handler(r);
    bool committed = false;
    if (r->status >= 400 && !r->keep_changes) {
        s->ops->rollback(s);
        if (write)
            audit_record_refused(r); /* who tried what, and why not (core/audit.h) */
    } else if ((write && r->status < 400 && audit_record(r) != 0) || s->ops->commit(s) != STORE_OK) {
        s->ops->rollback(s);
        reply_error(r, E_STORE, "the change could not be saved");
    } else {
        committed = true;
        if (r->after_commit)
            r->after_commit();
        if (write)
            if (commit_hook)
                commit_hook(r->path); /* the data planes render what changed (dispatch_on_commit) */
    }
    for (const struct req_end_hook *h = r->end_hooks; h; h = h->next)
        if (h->on_commit == committed)
            h->fn(r, h->arg);
}

void req_on_end(struct req *r, bool on_commit, void (*fn)(struct req *r, const char *arg), const char *arg)
{
    struct req_end_hook *h = arena_alloc(&r->arena, sizeof *h), **tail = &r->end_hooks;
    if (!h)
        return;
    *h = (struct req_end_hook){.on_commit = on_commit, .fn = fn, .arg = arena_strdup(&r->arena, arg)};
    while (*tail)
        tail = &(*tail)->next;
    *tail = h;
}

/* Token, source address and tenancy are read in one read transaction; a
 * read-only request (GET/HEAD) goes on in that same transaction through its
 * handler. Before, each of the token and customer lookups ran in an implicit
 * transaction of its own and the handler in a third: per GET, two more WAL
 * read-lock round trips (4 fcntl calls instead of 2) and SQLite's
 * per-transaction bookkeeping, ~7,000 instructions. A write request ends
 * the read transaction and takes the write lock only for its handler, so
 * that requests with a bad token never queue for the write lock. */
/* Operator routes (ingest): the bearer token, checked in a read
 * transaction of its own; the handler then runs in a write transaction. */
static int authorise_operator(struct req *r)
{
    if (begin(r, false) != 0)
        return -1;
    int rc = auth_check_ingest(r);
    r->store->ops->rollback(r->store);
    return rc;
}

static int authorise(struct req *r, bool *open)
{
    if (r->route->access == ACCESS_INGEST)
        return authorise_operator(r);
    const char *token;
    if (take_token(r, &token) != 0 || begin(r, false) != 0)
        return -1;
    if (auth_resolve_token(r, token) != 0 || abuse_app_request(r, r->caller.app_id) != 0 ||
        auth_check_access(r) != 0) {
        r->store->ops->rollback(r->store);
        return -1;
    }
    *open = !writes(r);
    if (!*open)
        r->store->ops->rollback(r->store); /* a read transaction: nothing to undo */
    return 0;
}

/* The key of a ROUTE_CACHED answer: everything it may depend on besides the
 * stored data — the route, the caller, the raw path and the decoded query
 * (without access_token, which take_token removed; a cached route takes no
 * body). 0 when the request cannot be cached (no version, too long a key). */
/* Appends s and the separator sep to buf[size] at *len; false when it does
 * not fit. (snprintf with six strings was ~1% of a cached GET.) */
static bool key_part(char *buf, size_t size, size_t *len, const char *s, char sep)
{
    size_t n = strlen(s);
    if (n + 1 >= size - *len)
        return false;
    memcpy(buf + *len, s, n);
    buf[*len + n] = sep;
    *len += n + 1;
    return true;
}

static size_t cache_key(const struct req *r, char *buf, size_t size)
{
    if (!(r->route->flags & ROUTE_CACHED) || r->method != M_GET || r->data_version == 0 ||
        r->body_kind != BODY_NONE)
        return 0;
    const char kind[2] = {(char)('0' + (int)r->caller.kind), '\0'}; /* enum token_kind: one digit */
    size_t len = 0;
    if (!key_part(buf, size, &len, r->route->id, '\n') || !key_part(buf, size, &len, kind, ' ') ||
        !key_part(buf, size, &len, r->caller.app_id, ' ') ||
        !key_part(buf, size, &len, r->caller.portal_id, ' ') ||
        !key_part(buf, size, &len, r->caller.customer_id, '\n') || !key_part(buf, size, &len, r->path, '\n'))
        return 0;
    if (r->query_fields && json_object_size(r->query_fields) > 0) {
        size_t q = json_dumpb(r->query_fields, buf + len, size - len, JSON_COMPACT | JSON_SORT_KEYS);
        if (q == 0 || q >= size - len)
            return 0;
        len += q;
    }
    return len;
}

/* Answers from the thread's reply cache (core/reply_cache.h) and ends the
 * request's read transaction; false on a miss. */
static bool cached_answer(struct req *r, const char *key, size_t key_len)
{
    struct cached_reply c;
    if (!key_len || !reply_cache_get(r->data_version, key, key_len, &c))
        return false;
    r->store->ops->rollback(r->store); /* the read transaction authorise left open */
    free(r->reply_body);
    r->status = c.status;
    r->code = c.code;
    r->reply_type = c.type;
    r->reply_body = c.body;
    r->reply_len = c.len;
    return true;
}

/* Keeps a successful answer of a ROUTE_CACHED route for the next same read. */
static void keep_answer(const struct req *r, const char *key, size_t key_len)
{
    if (!key_len || r->status != 200 || !r->reply_body || r->location || r->disposition)
        return;
    struct cached_reply c = {
        .status = r->status, .code = r->code, .type = r->reply_type, .body = r->reply_body, .len = r->reply_len};
    reply_cache_put(r->data_version, key, key_len, &c);
}

bool dispatch_to(struct req *r, bool defer_writes)
{
    struct route_match m;
    switch (router_match(router, r->method, r->path, &m)) {
    case ROUTER_NO_PATH: reply_error(r, E_PATH_UNKNOWN, "no endpoint has the path %s", r->path); return false;
    case ROUTER_NO_METHOD:
        r->allow = arena_strdup(&r->arena, m.allow);
        reply_error(r, E_METHOD, "%s is not allowed here; the path takes %s", method_name(r->method),
                    m.allow);
        return false;
    case ROUTER_MATCH: break;
    }
    r->route = m.route;
    r->path_params = json_object();
    for (int i = 0; i < m.nparams; i++) {
        json_t *v = json_string(m.params[i].value);
        if (!v) {
            reply_error(r, E_NOT_FOUND, "%s: no such resource", m.params[i].name);
            return false;
        }
        json_object_set_new(r->path_params, m.params[i].name, v);
    }
    if (check_input(r) != 0)
        return false;
    bool open = false;
    if (r->route->access != ACCESS_PUBLIC && authorise(r, &open) != 0)
        return false;
    /* bad fields, or a request the route's prepare refuses (core/route.h) */
    if (check_fields(r) != 0 || (r->route->prepare && r->route->prepare(r) != 0)) {
        if (open)
            r->store->ops->rollback(r->store);
        else if (r->route->access != ACCESS_PUBLIC)
            audit_record_refused(r); /* an authenticated write refused so */
        return false;
    }
    bool guarded = r->route->flags & ROUTE_GUARDED;
    if (guarded && abuse_guard_check(r) != 0)
        return false;
    if (defer_writes && writes(r)) {
        audit_prepare(r); /* here, not on the write lane */
        return true;      /* dispatch_write runs the handler */
    }
    char key[1024];
    size_t key_len = open && !guarded ? cache_key(r, key, sizeof key) : 0;
    if (cached_answer(r, key, key_len))
        return false;
    run_handler(r, open);
    keep_answer(r, key, key_len);
    if (guarded)
        abuse_guard_record(r);
    return false;
}

void dispatch_write(struct req *r)
{
    run_handler(r, false); /* a write's authorise left no transaction open */
    if (r->route->flags & ROUTE_GUARDED)
        abuse_guard_record(r);
}

void dispatch(struct req *r)
{
    if (dispatch_to(r, true))
        dispatch_write(r);
}
