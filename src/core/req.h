/* req.h — one HTTP request as the core sees it: decoded input, the caller's
 * identity once checked, and the reply being built. The HTTP layer
 * (src/server) fills the input side and sends the reply; nothing here knows
 * about libmicrohttpd. */
#ifndef PARAPET_REQ_H
#define PARAPET_REQ_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/net.h"
#include "core/errors.h"
#include "store/store.h"

enum http_method { M_GET, M_POST, M_PUT, M_DELETE, M_PATCH, M_HEAD, M_OPTIONS, M_OTHER };

enum body_kind {
    BODY_NONE,      /* no body bytes */
    BODY_FORM,      /* application/x-www-form-urlencoded */
    BODY_MULTIPART, /* multipart/form-data */
    BODY_JSON,      /* application/json */
    BODY_NDJSON,    /* application/x-ndjson (telemetry ingest) */
    BODY_OTHER,     /* anything else: refused with 415 */
};

struct upload_file {
    const char *field;
    const char *filename;
    const char *content_type;
    char *data;
    size_t len;
    struct upload_file *next;
};

/* Who is calling, resolved from the access token. */
enum token_kind { TOKEN_NONE, TOKEN_PORTAL, TOKEN_INSTALLED };

struct caller {
    enum token_kind kind;
    char app_id[ID_LEN + 1];
    char portal_id[ID_LEN + 1];   /* portal tokens */
    char customer_id[ID_LEN + 1]; /* installed-app tokens */
};

struct server_config;
struct route;

struct req {
    struct arena arena;
    const struct server_config *config;
    struct store *store;

    /* input */
    enum http_method method;
    const char *path;      /* raw, still percent-encoded */
    const char *query;     /* raw query string without '?', "" if none */
    struct ip_addr client; /* source address */
    enum body_kind body_kind;
    const char *input_error;   /* set when the query or body could not be decoded */
    int input_error_code;      /* enum err for input_error */
    json_t *query_fields;      /* decoded query */
    json_t *body_fields;       /* decoded body (form/multipart/JSON object) */
    struct upload_file *files; /* multipart file parts */
    const char *body_raw;      /* the body's bytes: NDJSON, and JSON arrays (ROUTE_RAW_BODY routes) */
    size_t body_raw_len;
    bool body_is_array;        /* a JSON body that is an array: only ROUTE_RAW_BODY routes take it */
    const char *bearer;        /* the Authorization: Bearer credential, if any */
    const char *request_id;    /* the server's id of this request (X-Request-Id), or NULL */

    /* resolved by the dispatcher */
    const struct route *route;
    json_t *path_params;
    json_t *fields; /* checked, normalised fields */
    struct caller caller;
    uint64_t data_version;      /* the store's, read before authentication's first read */
    uint64_t accounts_version;  /* the store's accounts_version, read then too (core/auth_cache.h) */
    struct customer customer;   /* the customer acted on, when the route has one */
    struct resource site;       /* ACCESS_SITE routes: the site of the path's {site_id} */
    json_t *held;               /* JSON values kept until the request ends (core/resource.h) */
    json_t *audit_before;       /* write requests: the resources they loaded, as they were (core/audit.h) */
    const char *audit_changes;  /* write requests: audit_prepare's text of the fields (in arena) */
    json_t *prepared;           /* what the route's prepare made for its handler (held; core/route.h) */
    bool keep_changes;          /* commit the transaction even though the reply is an error */
    void (*after_commit)(void); /* run once the handler's changes are committed (e.g. wake a deployer) */
    struct req_end_hook *end_hooks; /* req_on_end() */

    /* reply */
    int status;
    long code;        /* envelope code sent */
    char *reply_body; /* malloc'd */
    size_t reply_len;
    const char *reply_type;
    const char *location; /* 302 target */
    const char *allow;    /* 405: the methods the path takes */
    const char *disposition; /* Content-Disposition of a download */
    unsigned rate_limit, rate_window, rate_remaining, rate_reset; /* the app's quota (0: none) */
    unsigned retry_after;                                         /* seconds, for a 429 (0: none) */
};

/* Work outside the store that must follow the transaction's outcome (files
 * written or to be removed): fn(r, arg) runs once the request's transaction
 * has committed (on_commit) or has been rolled back (!on_commit); arg is
 * copied. Hooks run in the order they were added. */
struct req_end_hook {
    struct req_end_hook *next;
    bool on_commit;
    void (*fn)(struct req *r, const char *arg);
    const char *arg;
};
void req_on_end(struct req *r, bool on_commit, void (*fn)(struct req *r, const char *arg), const char *arg);

const char *method_name(enum http_method m);
enum http_method method_parse(const char *s);

/* Reading checked fields (the spec guarantees presence and type of required
 * fields; the getters return a fallback for absent optional ones). */
const char *field_str(struct req *r, const char *name); /* NULL if absent */
long long field_int(struct req *r, const char *name, long long fallback);
bool field_bool(struct req *r, const char *name, bool fallback);
json_t *field_json(struct req *r, const char *name); /* borrowed; NULL if absent */
const struct upload_file *field_file(struct req *r, const char *name);
const char *path_param(struct req *r, const char *name);
/* A field's text exactly as the client sent it, before any canonical form
 * (CANON in spec.h) replaced it; NULL if absent or not a single string. */
const char *field_as_sent(struct req *r, const char *name);

/* Replies. Each returns 0 so a handler can `return reply_...(...)`. */
int reply_result(struct req *r, json_t *result); /* steals result; NULL = no result member */
int reply_error(struct req *r, enum err e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int reply_store_error(struct req *r, int store_rc); /* maps STORE_* to an envelope error */
int reply_redirect(struct req *r, const char *location);
/* A 200 reply that is not an envelope (a file download): `body` is
 * malloc'd and taken over; `content_type` must outlive the request. */
int reply_raw(struct req *r, const char *content_type, char *body, size_t len);
/* reply_raw, saved by the client as `filename` (Content-Disposition:
 * attachment; the name is the caller's, of safe characters only). */
int reply_download(struct req *r, const char *content_type, const char *filename, char *body, size_t len);

#endif
