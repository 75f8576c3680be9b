/* nft_counters.c — see nft_counters.h. */
#include "dataplane/nftables/nft_counters.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/crypto.h"
#include "dataplane/nftables/nft_lib.h"
#include "deploy/files.h"

/* counters.map as {name: [address, action, policy, protocol]}. */
static json_t *parse_map(const char *text)
{
    json_t *map = json_object();
    for (const char *line = text ? text : ""; *line;) {
        size_t len = strcspn(line, "\n");
        if (*line != '#' && len < 512) {
            char buf[512], *f[5];
            memcpy(buf, line, len);
            buf[len] = '\0';
            int n = 0;
            for (char *save = NULL, *tok = strtok_r(buf, "\t", &save); tok && n < 5; tok = strtok_r(NULL, "\t", &save))
                f[n++] = tok;
            if (n >= 4)
                json_object_set_new(map, f[0], json_pack("[s,s,s,i]", f[1], f[2], strcmp(f[3], "-") ? f[3] : "",
                                                         n == 5 ? atoi(f[4]) : 0));
        }
        line += len + (line[len] == '\n');
    }
    return map;
}

json_t *nft_counter_readings(const char *nft_json, const char *map_text)
{
    json_t *doc = json_loads(nft_json ? nft_json : "", 0, NULL);
    json_t *items = json_object_get(doc, "nftables");
    if (!json_is_array(items)) {
        json_decref(doc);
        return NULL;
    }
    json_t *map = parse_map(map_text), *out = json_array();
    size_t i;
    json_t *item;
    json_array_foreach (items, i, item) {
        json_t *c = json_object_get(item, "counter");
        const char *name = json_string_value(json_object_get(c, "name"));
        json_t *m = name ? json_object_get(map, name) : NULL;
        json_int_t packets = json_integer_value(json_object_get(c, "packets"));
        json_int_t bytes = json_integer_value(json_object_get(c, "bytes"));
        if (!m || packets <= 0)
            continue;
        json_array_append_new(out, json_pack("{s:s,s:O,s:O,s:O,s:O,s:I,s:I}", "name", name, "address",
                                             json_array_get(m, 0), "action", json_array_get(m, 1), "policy",
                                             json_array_get(m, 2), "protocol", json_array_get(m, 3), "packets",
                                             packets, "bytes", bytes < 0 ? 0 : bytes));
    }
    json_decref(map);
    json_decref(doc);
    return out;
}

json_t *nft_counter_records(const json_t *sums, int64_t from)
{
    json_t *out = json_array();
    const char *name;
    json_t *s;
    json_object_foreach ((json_t *)sums, name, s) {
        char digest[65], id[64];
        sha256_hex(name, digest);
        snprintf(id, sizeof id, "nft-%lld-%.16s", (long long)from, digest);
        const char *address = json_string_value(json_object_get(s, "address"));
        const char *policy = json_string_value(json_object_get(s, "policy"));
        json_t *r = json_pack("{s:s,s:s,s:I,s:s,s:s,s:s,s:I,s:O,s:O,s:O}", "kind", "flow", "flow_id", id, "time",
                              (json_int_t)from, "router", "nftables", "src_ip",
                              address && strchr(address, ':') ? "::" : "0.0.0.0", "dst_ip", address ? address : "",
                              "protocol", json_integer_value(json_object_get(s, "protocol")), "bytes",
                              json_object_get(s, "bytes"), "packets", json_object_get(s, "packets"), "action",
                              json_object_get(s, "action"));
        if (policy && *policy)
            json_object_set_new(r, "policy_type", json_string(policy));
        char *line = json_dumps(r, JSON_COMPACT);
        json_array_append_new(out, json_string(line));
        free(line);
        json_decref(r);
    }
    return out;
}

static pthread_mutex_t sums_lock = PTHREAD_MUTEX_INITIALIZER;
static json_t *sums;

static void add_reading(const json_t *readings)
{
    pthread_mutex_lock(&sums_lock);
    if (!sums)
        sums = json_object();
    size_t i;
    json_t *r;
    json_array_foreach ((json_t *)readings, i, r) {
        const char *name = json_string_value(json_object_get(r, "name"));
        json_t *s = json_object_get(sums, name);
        if (!s) {
            json_object_set_new(sums, name, json_deep_copy(r));
            json_object_del(json_object_get(sums, name), "name");
            continue;
        }
        /* the address or action may have changed with the rules: the latest wins */
        json_object_set(s, "address", json_object_get(r, "address"));
        json_object_set(s, "action", json_object_get(r, "action"));
        json_object_set(s, "policy", json_object_get(r, "policy"));
        json_object_set(s, "protocol", json_object_get(r, "protocol"));
        for (int k = 0; k < 2; k++) {
            const char *m = k ? "bytes" : "packets";
            json_object_set_new(s, m, json_integer(json_integer_value(json_object_get(s, m)) +
                                                   json_integer_value(json_object_get(r, m))));
        }
    }
    pthread_mutex_unlock(&sums_lock);
}

int nft_counters_collect(const char *table, const char *map_path, char *why, size_t why_len)
{
    char command[256];
    snprintf(command, sizeof command, "reset counters table inet %s", table);
    char *out = NULL;
    int rc = nft_lib_json(command, &out, why, why_len);
    if (rc != 0) {
        free(out);
        return rc > 0 && strstr(why, "No such file or directory") ? 1 : -1;
    }
    char *map = files_read(map_path);
    json_t *readings = nft_counter_readings(out, map);
    free(map);
    free(out);
    if (!readings) {
        snprintf(why, why_len, "nftables answered something other than JSON");
        return -1;
    }
    add_reading(readings);
    json_decref(readings);
    return 0;
}

json_t *nft_counters_take(void)
{
    pthread_mutex_lock(&sums_lock);
    json_t *out = sums ? sums : json_object();
    sums = NULL;
    pthread_mutex_unlock(&sums_lock);
    return out;
}
