/* admin_catalogue.c — `parapet admin catalogue list | get --key K | set --key K
 * (--value JSON | FILE) | reset --key K`: the operator's catalogue (core/catalogue.h). */
#include <stdio.h>
#include <string.h>

#include "cli/admin.h"
#include "cli/admin_print.h"
#include "cli/args.h"
#include "core/catalogue.h"
#include "core/catalogue_check.h"

static int list(struct store *s)
{
    json_t *rows = NULL;
    s->ops->begin(s, false);
    int rc = s->ops->catalogue_list(s, &rows);
    s->ops->commit(s);
    if (rc != STORE_OK) {
        fprintf(stderr, "parapet: the store could not be read\n");
        return 1;
    }
    return admin_print(json_pack("{s:o}", "catalogue", rows));
}

static int get(struct store *s, const char *key)
{
    json_t *v = NULL;
    s->ops->begin(s, false);
    int rc = s->ops->catalogue_get(s, key, &v);
    s->ops->commit(s);
    if (rc != STORE_OK) {
        fprintf(stderr, "parapet: catalogue has no key %s\n", key);
        return 1;
    }
    return admin_print(json_pack("{s:s,s:o}", "key", key, "value", v));
}

/* Replaces a value; the operator's value must keep the shape of the
 * shipped default (catalogue_check.h), as handlers rely on it. */
static int set(struct store *s, const char *key, json_t *value, const char *source)
{
    const char *why_none;
    json_t *def = catalogue_default_value(key, &why_none);
    char why[320];
    if (def && catalogue_check(key, def, value, why, sizeof why) != 0) {
        fprintf(stderr, "parapet: catalogue %s\n", why);
        json_decref(def);
        json_decref(value);
        return 2;
    }
    json_decref(def);
    s->ops->begin(s, true);
    int rc = s->ops->catalogue_set(s, key, value, source);
    if (rc != STORE_OK || s->ops->commit(s) != STORE_OK) {
        s->ops->rollback(s);
        json_decref(value);
        fprintf(stderr, "parapet: catalogue %s could not be saved\n", key);
        return 1;
    }
    return admin_print(json_pack("{s:s,s:s,s:o}", "key", key, "source", source, "value", value));
}

int admin_catalogue(struct store *s, const char *verb, json_t *a, const char *file)
{
    if (strcmp(verb, "list") == 0)
        return list(s);
    const char *key = arg_str(a, "key");
    if (!key || !*key) {
        fprintf(stderr, "parapet: catalogue %s needs --key KEY\n", verb);
        return 2;
    }
    if (strcmp(verb, "get") == 0)
        return get(s, key);
    if (strcmp(verb, "reset") == 0) {
        const char *why;
        json_t *def = catalogue_default_value(key, &why);
        if (!def) {
            fprintf(stderr, "parapet: catalogue %s: %s\n", key, why);
            return 1;
        }
        return set(s, key, def, "default");
    }
    const char *text = arg_str(a, "value");
    json_error_t e;
    json_t *v = text   ? json_loads(text, JSON_DECODE_ANY, &e)
                : file ? json_load_file(file, JSON_DECODE_ANY, &e)
                       : NULL;
    if (!text && !file) {
        fprintf(stderr, "parapet: catalogue set needs --value JSON or a file\n");
        return 2;
    }
    if (!v) {
        fprintf(stderr, "parapet: catalogue %s: not JSON: %s (line %d)\n", key, e.text, e.line);
        return 2;
    }
    return set(s, key, v, "operator");
}
