/* catalogue.c — see catalogue.h. */
#include "core/catalogue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/resource.h"

/* countries: ISO 3166-1 alpha-2 code -> name, from Debian's iso-codes. */
static json_t *countries_from_iso_codes(const char **why)
{
    json_error_t e;
    json_t *doc = json_load_file(CATALOGUE_ISO3166_PATH, 0, &e);
    json_t *list = json_object_get(doc, "3166-1");
    if (!json_is_array(list)) {
        *why = "cannot read " CATALOGUE_ISO3166_PATH " (Debian package iso-codes)";
        json_decref(doc);
        return NULL;
    }
    json_t *out = json_object();
    size_t i;
    json_t *c;
    json_array_foreach (list, i, c) {
        const char *code = json_string_value(json_object_get(c, "alpha_2"));
        const char *name = json_string_value(json_object_get(c, "name"));
        if (code && name)
            json_object_set_new(out, code, json_string(name));
    }
    json_decref(doc);
    return out;
}

/* ip_protocol_number_list: number -> IANA keyword, from netbase's
 * /etc/protocols ("name number ALIAS ... # comment"; the first alias is the
 * IANA keyword, the name when there is none). */
static json_t *protocols_from_netbase(const char **why)
{
    FILE *f = fopen(CATALOGUE_PROTOCOLS_PATH, "r");
    if (!f) {
        *why = "cannot read " CATALOGUE_PROTOCOLS_PATH " (Debian package netbase)";
        return NULL;
    }
    json_t *out = json_object();
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *save = NULL, *name = strtok_r(line, " \t\r\n", &save);
        char *number = name ? strtok_r(NULL, " \t\r\n", &save) : NULL;
        char *alias = number ? strtok_r(NULL, " \t\r\n", &save) : NULL;
        if (!number || strspn(number, "0123456789") != strlen(number) || strlen(number) > 3)
            continue;
        json_object_set_new(out, number, json_string(alias ? alias : name));
    }
    fclose(f);
    return out;
}

static const struct {
    const char *key;
    json_t *(*load)(const char **why);
} computed[] = {
    {"countries", countries_from_iso_codes},
    {"ip_protocol_number_list", protocols_from_netbase},
};

json_t *catalogue_default_value(const char *key, const char **why)
{
    *why = "no shipped default";
    for (size_t i = 0; i < sizeof computed / sizeof computed[0]; i++)
        if (strcmp(computed[i].key, key) == 0)
            return computed[i].load(why);
    for (int i = 0; i < catalogue_defaults_count; i++) {
        if (strcmp(catalogue_defaults[i].key, key) != 0)
            continue;
        json_error_t e;
        json_t *v = json_loads(catalogue_defaults[i].json, JSON_DECODE_ANY, &e);
        if (!v)
            *why = "the shipped default is not valid JSON";
        return v;
    }
    return NULL;
}

json_t *catalogue_default_keys(void)
{
    json_t *keys = json_array();
    for (size_t i = 0; i < sizeof computed / sizeof computed[0]; i++)
        json_array_append_new(keys, json_string(computed[i].key));
    for (int i = 0; i < catalogue_defaults_count; i++)
        json_array_append_new(keys, json_string(catalogue_defaults[i].key));
    return keys;
}

int catalogue_seed(struct store *s)
{
    if (s->ops->begin(s, true) != STORE_OK)
        return -1;
    json_t *keys = catalogue_default_keys();
    int rc = 0;
    size_t i;
    json_t *k;
    json_array_foreach (keys, i, k) {
        const char *key = json_string_value(k), *why;
        json_t *have = NULL;
        int got = s->ops->catalogue_get(s, key, &have);
        json_decref(have);
        if (got == STORE_OK)
            continue;
        json_t *v = got == STORE_NOT_FOUND ? catalogue_default_value(key, &why) : NULL;
        if (!v) {
            fprintf(stderr, "parapet: catalogue %s: %s\n", key, got == STORE_NOT_FOUND ? why : "store error");
            rc = -1;
            continue;
        }
        if (s->ops->catalogue_set(s, key, v, "default") != STORE_OK)
            rc = -1;
        json_decref(v);
    }
    json_decref(keys);
    /* What could be loaded is kept: a missing source only leaves its key out. */
    if (s->ops->commit(s) != STORE_OK) {
        s->ops->rollback(s);
        return -1;
    }
    return rc;
}

json_t *catalogue_value(struct req *r, const char *key)
{
    json_t *v = NULL;
    int rc = r->store->ops->catalogue_get(r->store, key, &v);
    if (rc != STORE_OK) {
        reply_error(r, E_INTERNAL, "the operator's catalogue has no %s (parapet admin catalogue)", key);
        return NULL;
    }
    return req_hold(r, v);
}

int catalogue_require_keys(struct req *r, const char *key, const char *field, const char *what)
{
    json_t *values = field_json(r, field);
    if (!values)
        return 0;
    json_t *known = catalogue_value(r, key);
    if (!known)
        return -1;
    json_t *one = json_is_array(values) ? NULL : values;
    size_t n = one ? 1 : json_array_size(values);
    for (size_t i = 0; i < n; i++) {
        json_t *v = one ? one : json_array_get(values, i);
        const char *s = json_string_value(v);
        if (!s || !json_object_get(known, s)) {
            if (one)
                reply_error(r, E_FIELD_INVALID, "%s: %s is not one of the catalogue's %s", field, s ? s : "?",
                            what);
            else
                reply_error(r, E_FIELD_INVALID, "%s[%zu]: %s is not one of the catalogue's %s", field, i,
                            s ? s : "?", what);
            return -1;
        }
    }
    return 0;
}
