/* fuzz_knot_conf.c — knot_render_zones on zone specs whose stored values
 * are arbitrary bytes (as if they had reached the store some other way than
 * through the API). Input: NUL-separated fields and flag bytes making 1-3
 * specs (name, flags, masters: ip, key_name, secret, algorithm; multi-signer
 * addresses). Invariants: a refusal names a spec and says why; otherwise an
 * exact re-parse of zones.conf finds only lines of its grammar (sections,
 * items, `key: value` with a quoted string, a bare word or a list of them;
 * no quote, backslash or control character inside a quoted string), and
 * the values it holds are exactly the specs': each zone's domain in order,
 * each master's remote with its address and key, each key's secret and
 * algorithm. So no value can end its string, its line or its item. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "deploy/knot_conf.h"
#include "fuzz_assert.h"

struct reader {
    const uint8_t *p;
    size_t n;
};

static json_t *field(struct reader *r)
{
    size_t len = 0;
    while (len < r->n && r->p[len])
        len++;
    json_t *s = json_stringn_nocheck((const char *)r->p, len);
    r->p += len < r->n ? len + 1 : len;
    r->n -= len < r->n ? len + 1 : len;
    return s;
}

static unsigned byte(struct reader *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

/* One parsed line: `key: value` of the item it belongs to. */
struct item {
    char section[16];
    int index; /* of the item within its section */
    char key[32];
    char value[4400]; /* a quoted string's content, a bare word, or a list's items joined by '|' */
};

static bool quoted(const char **p, char *out, size_t size, size_t *used)
{
    if (**p != '"')
        return false;
    const char *q = *p + 1;
    while (*q && *q != '"') {
        FUZZ_ASSERT((unsigned char)*q >= 0x20 && *q != 0x7f && *q != '\\');
        q++;
    }
    FUZZ_ASSERT(*q == '"');
    size_t n = (size_t)(q - *p - 1);
    FUZZ_ASSERT(*used + n < size);
    memcpy(out + *used, *p + 1, n);
    *used += n;
    out[*used] = '\0';
    *p = q + 1;
    return true;
}

static bool bare(const char **p, char *out, size_t size, size_t *used)
{
    const char *q = *p;
    while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '-')
        q++;
    size_t n = (size_t)(q - *p);
    if (!n)
        return false;
    FUZZ_ASSERT(*used + n < size);
    memcpy(out + *used, *p, n);
    *used += n;
    out[*used] = '\0';
    *p = q;
    return true;
}

/* A value: quoted, bare, or "[ v, v ]"; the rest of the line must be empty. */
static void value(const char *p, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    if (*p == '[') {
        FUZZ_ASSERT(p[1] == ' ');
        p += 2;
        for (bool first = true;; first = false) {
            if (!first) {
                if (p[0] == ' ' && p[1] == ']')
                    break;
                FUZZ_ASSERT(p[0] == ',' && p[1] == ' ');
                p += 2;
                FUZZ_ASSERT(used + 1 < size);
                out[used++] = '|';
                out[used] = '\0';
            }
            FUZZ_ASSERT(quoted(&p, out, size, &used) || bare(&p, out, size, &used));
        }
        p += 2;
    } else {
        FUZZ_ASSERT(quoted(&p, out, size, &used) || bare(&p, out, size, &used));
    }
    FUZZ_ASSERT(*p == '\0');
}

/* Parses zones.conf into items; returns how many. */
static size_t parse(char *text, struct item *items, size_t max)
{
    size_t n = 0;
    char section[16] = "";
    int index = -1;
    bool first = true;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"), first = false) {
        if (first) {
            FUZZ_ASSERT(line[0] == '#');
            continue;
        }
        size_t len = strlen(line);
        if (line[0] != ' ') {
            FUZZ_ASSERT(len >= 2 && len < sizeof section && line[len - 1] == ':');
            FUZZ_ASSERT(!strcmp(line, "key:") || !strcmp(line, "remote:") || !strcmp(line, "acl:") ||
                        !strcmp(line, "policy:") || !strcmp(line, "zone:"));
            snprintf(section, sizeof section, "%.*s", (int)(len - 1), line);
            index = -1;
            continue;
        }
        FUZZ_ASSERT(section[0]);
        const char *p;
        if (!strncmp(line, "  - ", 4)) {
            index++;
            p = line + 4;
        } else {
            FUZZ_ASSERT(!strncmp(line, "    ", 4) && line[4] != ' ' && index >= 0);
            p = line + 4;
        }
        const char *colon = strstr(p, ": ");
        FUZZ_ASSERT(colon && colon > p && (size_t)(colon - p) < sizeof items[0].key);
        for (const char *k = p; k < colon; k++)
            FUZZ_ASSERT((*k >= 'a' && *k <= 'z') || *k == '-');
        FUZZ_ASSERT(n < max);
        struct item *it = &items[n++];
        snprintf(it->section, sizeof it->section, "%s", section);
        it->index = index;
        snprintf(it->key, sizeof it->key, "%.*s", (int)(colon - p), p);
        value(colon + 2, it->value, sizeof it->value);
    }
    return n;
}

/* The value of `key` in the item of `section` whose `id_key` is `id`. */
static const char *lookup(const struct item *items, size_t n, const char *section, const char *id_key,
                          const char *id, const char *key)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(items[i].section, section) || strcmp(items[i].key, id_key) || strcmp(items[i].value, id))
            continue;
        for (size_t j = 0; j < n; j++)
            if (!strcmp(items[j].section, section) && items[j].index == items[i].index && !strcmp(items[j].key, key))
                return items[j].value;
        return NULL;
    }
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    struct reader r = {data, size};
    json_t *specs = json_array();
    size_t nspecs = byte(&r) % 3 + 1;
    for (size_t i = 0; i < nspecs; i++) {
        unsigned flags = byte(&r);
        json_t *spec = json_pack("{s:o,s:b,s:b,s:b}", "name", field(&r), "zone_transfer", (flags & 8) != 0,
                                 "dnssec", (flags & 1) != 0, "root_cname", (flags & 2) != 0);
        json_t *masters = json_array(), *ips = json_array();
        for (unsigned j = 0; j < (flags >> 4) % 3; j++)
            json_array_append_new(masters, json_pack("{s:o,s:o,s:o,s:o}", "ip", field(&r), "key_name", field(&r),
                                                     "secret", field(&r), "algorithm", field(&r)));
        for (unsigned j = 0; j < (flags >> 6) % 3; j++)
            json_array_append_new(ips, field(&r));
        json_object_set_new(spec, "masters", masters);
        json_object_set_new(spec, "multi_signer", json_pack("{s:b,s:o}", "enabled", (flags & 4) != 0, "ip", ips));
        json_array_append_new(specs, spec);
    }
    for (size_t a = 0; a < nspecs; a++) /* zone names are unique in the store */
        for (size_t b = a + 1; b < nspecs; b++)
            if (json_equal(json_object_get(json_array_get(specs, a), "name"),
                           json_object_get(json_array_get(specs, b), "name"))) {
                json_decref(specs);
                return 0;
            }
    size_t bad = 99;
    char why[256] = "";
    char *text = knot_render_zones(specs, &bad, why, sizeof why);
    if (!text) {
        FUZZ_ASSERT(why[0] && bad < nspecs);
        json_decref(specs);
        return 0;
    }
    static struct item items[256];
    size_t n = parse(text, items, sizeof items / sizeof items[0]);
    /* the zones, in order, and nothing else */
    size_t domains = 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(items[i].section, "zone") && !strcmp(items[i].key, "domain")) {
            FUZZ_ASSERT(domains < nspecs);
            FUZZ_ASSERT(!strcmp(items[i].value, json_string_value(json_object_get(json_array_get(specs, domains),
                                                                                  "name"))));
            domains++;
        }
    FUZZ_ASSERT(domains == nspecs);
    size_t i;
    json_t *spec;
    json_array_foreach (specs, i, spec) {
        size_t j;
        json_t *m;
        json_array_foreach (json_object_get(spec, "masters"), j, m) {
            char id[4400];
            snprintf(id, sizeof id, "%s#m%zu", json_string_value(json_object_get(spec, "name")), j);
            const char *addr = lookup(items, n, "remote", "id", id, "address");
            FUZZ_ASSERT(addr && !strcmp(addr, json_string_value(json_object_get(m, "ip"))));
            const char *key = json_string_value(json_object_get(m, "key_name"));
            const char *written = lookup(items, n, "remote", "id", id, "key");
            if (!*key) {
                FUZZ_ASSERT(!written);
                continue;
            }
            char key_id[4400];
            snprintf(key_id, sizeof key_id, "%s.", key);
            FUZZ_ASSERT(written && !strcmp(written, key_id));
            const char *secret = lookup(items, n, "key", "id", key_id, "secret");
            const char *alg = lookup(items, n, "key", "id", key_id, "algorithm");
            FUZZ_ASSERT(secret && !strcmp(secret, json_string_value(json_object_get(m, "secret"))));
            FUZZ_ASSERT(alg && !strcmp(alg, json_string_value(json_object_get(m, "algorithm"))));
        }
    }
    free(text);
    json_decref(specs);
    return 0;
}
