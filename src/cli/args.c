/* args.c — see args.h. */
#include "cli/args.h"

#include <stdio.h>
#include <string.h>

json_t *args_parse(int argc, char **argv, const struct opt *opts)
{
    json_t *out = json_object();
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const struct opt *o = NULL;
        if (strncmp(a, "--", 2) == 0)
            for (o = opts; o->name && strcmp(o->name, a + 2) != 0; o++)
                ;
        if (!o || !o->name) {
            fprintf(stderr, "parapet: unexpected argument '%s'\n", a);
            goto fail;
        }
        json_t *value;
        if (o->flag) {
            value = json_true();
        } else {
            if (i + 1 >= argc) {
                fprintf(stderr, "parapet: %s needs a value\n", a);
                goto fail;
            }
            value = json_string(argv[++i]);
            if (!value) {
                fprintf(stderr, "parapet: %s: the value is not valid UTF-8\n", a);
                goto fail;
            }
        }
        json_t *old = json_object_get(out, o->name);
        if (o->repeatable) {
            if (!old)
                json_object_set_new(out, o->name, old = json_array());
            json_array_append_new(old, value);
        } else if (old) {
            json_decref(value);
            fprintf(stderr, "parapet: %s may be given once\n", a);
            goto fail;
        } else {
            json_object_set_new(out, o->name, value);
        }
    }
    return out;
fail:
    json_decref(out);
    return NULL;
}

const char *arg_str(json_t *args, const char *name)
{
    return json_string_value(json_object_get(args, name));
}

const char *arg_required(json_t *args, const char *name)
{
    const char *v = arg_str(args, name);
    if (!v)
        fprintf(stderr, "parapet: --%s is required\n", name);
    return v;
}

bool arg_flag(json_t *args, const char *name)
{
    return json_is_true(json_object_get(args, name));
}
