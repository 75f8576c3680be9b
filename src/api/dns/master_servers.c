/* master_servers.c — the master servers of a zone transfer zone: add
 * (appends), replace (replaces all), delete by address. Each config has an
 * address and, optionally, a TSIG key (key_name, secret and algorithm go
 * together). A TSIG key name means one key on the whole platform: Knot DNS
 * keeps one secret per key name, so a name already used with another secret
 * or algorithm is refused. */
#include <string.h>

#include "api/dns/dns.h"
#include "base/text.h"

static const char *const tsig_members[] = {"key_name", "secret", "algorithm"};

/* Loads the zone and insists that it is a zone transfer zone. */
static int load_transfer_zone(struct req *r, struct dns_zone *z)
{
    if (dns_zone_load(r, z) != 0)
        return -1;
    if (!z->is_zone_transfer) {
        reply_error(r, E_STATE,
                    "zone_name: %s is a standard zone; master servers belong to zone transfer zones",
                    z->name);
        return -1;
    }
    return 0;
}

static int find_master(const struct dns_zone *z, const char *ip)
{
    for (int i = 0; i < z->n_masters; i++)
        if (strcmp(z->masters[i].ip, ip) == 0)
            return i;
    return -1;
}

/* One config of the request's master_servers (checked and canonical). */
static int read_master(struct req *r, size_t i, json_t *o, struct dns_master *m)
{
    memset(m, 0, sizeof *m);
    copy_text(m->ip, sizeof m->ip, json_string_value(json_object_get(o, "ip")));
    int given = 0;
    for (int k = 0; k < 3; k++)
        given += json_object_get(o, tsig_members[k]) != NULL;
    for (int k = 0; k < 3 && given > 0 && given < 3; k++) {
        if (!json_object_get(o, tsig_members[k])) {
            reply_error(r, E_FIELD_MISSING, "master_servers[%zu].%s: is required with %s", i, tsig_members[k],
                        json_object_get(o, "key_name") ? "key_name" : "a TSIG key");
            return -1;
        }
    }
    if (given == 3) {
        copy_text(m->key_name, sizeof m->key_name, json_string_value(json_object_get(o, "key_name")));
        copy_text(m->secret, sizeof m->secret, json_string_value(json_object_get(o, "secret")));
        copy_text(m->algorithm, sizeof m->algorithm, json_string_value(json_object_get(o, "algorithm")));
    }
    return 0;
}

/* The request's configs, in order, each address once. */
static int read_masters(struct req *r, struct dns_master *list, int *n)
{
    json_t *arr = field_json(r, "master_servers"), *o;
    size_t i;
    *n = 0;
    json_array_foreach (arr, i, o) {
        struct dns_master *m = &list[*n];
        if (read_master(r, i, o, m) != 0)
            return -1;
        for (int k = 0; k < *n; k++) {
            if (strcmp(list[k].ip, m->ip) == 0) {
                reply_error(r, E_FIELD_INVALID, "master_servers[%zu].ip: %s is listed twice", i, m->ip);
                return -1;
            }
        }
        (*n)++;
    }
    return 0;
}

/* Every TSIG key name of the zone's masters stands for one secret and
 * algorithm, in this zone and in every other zone of the platform. */
static int check_keys(struct req *r, const struct dns_zone *z)
{
    for (int i = 0; i < z->n_masters; i++) {
        const struct dns_master *m = &z->masters[i];
        if (!m->key_name[0])
            continue;
        for (int k = 0; k < i; k++) {
            const struct dns_master *o = &z->masters[k];
            if (strcmp(o->key_name, m->key_name) == 0 &&
                (strcmp(o->secret, m->secret) != 0 || strcmp(o->algorithm, m->algorithm) != 0)) {
                reply_error(r, E_RULE,
                            "master_servers: TSIG key %s is given with two different secrets or algorithms",
                            m->key_name);
                return -1;
            }
        }
        struct dns_master other;
        int rc = r->store->ops->dns_key_find(r->store, m->key_name, z->id, &other);
        if (rc == STORE_OK &&
            (strcmp(other.secret, m->secret) != 0 || strcmp(other.algorithm, m->algorithm) != 0)) {
            reply_error(
                r, E_CONFLICT,
                "master_servers: TSIG key name %s is already in use with another secret or algorithm; "
                "choose another key name",
                m->key_name);
            return -1;
        }
        if (rc == STORE_ERROR) {
            reply_store_error(r, rc);
            return -1;
        }
    }
    return 0;
}

static int reply_masters(struct req *r, const struct dns_zone *z)
{
    return reply_result(r,
                        json_pack("{s:s,s:o}", "zone_name", z->name, "master_servers", dns_masters_json(z)));
}

int dns_master_servers_add(struct req *r)
{
    struct dns_zone z;
    struct dns_master add[DNS_MAX_MASTERS];
    int n;
    if (load_transfer_zone(r, &z) != 0 || read_masters(r, add, &n) != 0)
        return 0;
    for (int i = 0; i < n; i++) {
        if (find_master(&z, add[i].ip) >= 0)
            return reply_error(r, E_CONFLICT, "master_servers[%d].ip: %s is already a master server of %s", i,
                               add[i].ip, z.name);
    }
    if (z.n_masters + n > DNS_MAX_MASTERS)
        return reply_error(r, E_LIMIT,
                           "master_servers: a zone may have at most %d master servers (it has %d)",
                           DNS_MAX_MASTERS, z.n_masters);
    memcpy(&z.masters[z.n_masters], add, (size_t)n * sizeof add[0]);
    z.n_masters += n;
    if (check_keys(r, &z) != 0 || dns_zone_store(r, &z) != 0)
        return 0;
    return reply_masters(r, &z);
}

int dns_master_servers_replace(struct req *r)
{
    struct dns_zone z;
    if (load_transfer_zone(r, &z) != 0 || read_masters(r, z.masters, &z.n_masters) != 0 ||
        check_keys(r, &z) != 0 || dns_zone_store(r, &z) != 0)
        return 0;
    return reply_masters(r, &z);
}

int dns_master_servers_delete(struct req *r)
{
    struct dns_zone z;
    if (load_transfer_zone(r, &z) != 0)
        return 0;
    json_t *ips = field_json(r, "master_server_ips"), *ip;
    size_t i;
    json_array_foreach (ips, i, ip) {
        for (size_t k = 0; k < i; k++)
            if (json_equal(json_array_get(ips, k), ip))
                return reply_error(r, E_FIELD_INVALID, "master_server_ips[%zu]: %s is listed twice", i,
                                   json_string_value(ip));
        int at = find_master(&z, json_string_value(ip));
        if (at < 0)
            return reply_error(r, E_NOT_FOUND, "master_server_ips[%zu]: %s is not a master server of %s", i,
                               json_string_value(ip), z.name);
        memmove(&z.masters[at], &z.masters[at + 1], (size_t)(z.n_masters - at - 1) * sizeof z.masters[0]);
        z.n_masters--;
    }
    if (dns_zone_store(r, &z) != 0)
        return 0;
    return reply_result(r, json_pack("{s:s,s:O}", "zone_name", z.name, "master_server_ips", ips));
}
