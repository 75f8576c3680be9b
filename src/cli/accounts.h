/* accounts.h — creating portals, apps, customers and installations, and
 * loading ASN prefixes: shared by `parapet admin` and `parapet serve --dev`.
 * Each checks its input, writes in one transaction, and returns the JSON
 * object the admin command prints, or NULL with the reason in err. */
#ifndef PARAPET_ACCOUNTS_H
#define PARAPET_ACCOUNTS_H

#include <jansson.h>

#include "store/store.h"

struct account_error {
    char message[256];
};

struct app_request {
    const char *kind;      /* "portal" or "installed" */
    const char *portal_id; /* portal apps */
    const char *name;
    const char *host_url; /* installed apps */
    json_t *allow_ips;    /* array of CIDR strings, or NULL */
};

struct customer_request {
    const char *portal_id, *name, *email, *company, *phone, *address, *website;
    const char *services; /* "op,ap,dns,cdn" subset; NULL means all */
};

json_t *account_portal_create(struct store *s, const char *name, struct account_error *e);
json_t *account_app_create(struct store *s, const struct app_request *a, struct account_error *e);
json_t *account_customer_create(struct store *s, const struct customer_request *c, struct account_error *e);
json_t *account_install(struct store *s, const char *app_id, const char *customer_id,
                        struct account_error *e);
/* Adds prefixes (array of CIDR strings) for an ASN; max_length -1 means the
 * prefix's own length. Runs inside the caller's transaction. */
int account_asn_add(struct store *s, long long asn, const char *prefix, int max_length, const char *source,
                    struct account_error *e);
/* Parses "AS64496" or "64496" into a 32-bit ASN; -1 when invalid. */
long long account_parse_asn(const char *text);

#endif
