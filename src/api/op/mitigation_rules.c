/* mitigation_rules.c — small pure rules the family's files share: refusals,
 * rate values, duplicates, laying stored settings over their defaults. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "api/op/op_mitigation.h"
#include "base/rate.h"

void op_refuse(struct op_refusal *why, enum err e, const char *fmt, ...)
{
    why->err = e;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why->msg, sizeof why->msg, fmt, ap);
    va_end(ap);
}

const char *op_rule_rate(const json_t *value, long unused)
{
    (void)unused;
    uint64_t v;
    int rc = rate_parse(json_string_value(value), OP_RATE_MAX, &v);
    return rc == 0 ? NULL : rate_error(rc);
}

uint64_t op_rate_value(const char *text)
{
    uint64_t v = 0;
    if (!text || rate_parse(text, OP_RATE_MAX, &v) != 0)
        return 0;
    return v;
}

long op_first_duplicate(const json_t *array)
{
    /* strings through a set (lists of 1,000 addresses); anything else pairwise */
    json_t *seen = json_object();
    long dup = -1;
    size_t n = json_array_size(array);
    for (size_t i = 0; i < n && dup < 0; i++) {
        const json_t *v = json_array_get(array, i);
        if (json_is_string(v)) {
            if (json_object_get(seen, json_string_value(v)))
                dup = (long)i;
            json_object_set_new(seen, json_string_value(v), json_true());
            continue;
        }
        for (size_t j = 0; j < i && dup < 0; j++)
            if (json_equal(v, json_array_get(array, j)))
                dup = (long)i;
    }
    json_decref(seen);
    return dup;
}

json_t *op_merge(const json_t *defaults, const json_t *stored)
{
    if (!json_is_object(defaults))
        return json_deep_copy(stored ? stored : defaults);
    json_t *out = json_object();
    const char *key;
    json_t *def;
    json_object_foreach ((json_t *)defaults, key, def) {
        json_t *mine = json_is_object(stored) ? json_object_get(stored, key) : NULL;
        if (json_is_object(def))
            json_object_set_new(out, key, op_merge(def, json_is_object(mine) ? mine : NULL));
        else
            json_object_set_new(out, key, json_deep_copy(mine ? mine : def));
    }
    return out;
}
