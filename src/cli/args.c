/* args.c — see args.h. */
#include "cli/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/net.h"

json_t *args_parse(int argc, char **argv, const struct opt *opts)
{
    json_t *out = json_object();
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const struct opt *o = NULL;
        if (strncmp(a, "--", 2) == 0)
            for (o = opts; o->name && (!o->name[0] || strcmp(o->name, a + 2) != 0); o++)
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

int arg_long(json_t *args, const char *name, long dflt, long lo, long hi, long *out)
{
    const char *s = arg_str(args, name);
    char *end = NULL;
    *out = s ? strtol(s, &end, 10) : dflt;
    if (s && (!*s || *end || *out < lo || *out > hi)) {
        fprintf(stderr, "parapet: --%s must be an integer from %ld to %ld\n", name, lo, hi);
        return -1;
    }
    return 0;
}

int arg_address_port(const char *name, const char *text, bool port_optional, char *host, size_t host_size,
                     int *port)
{
    *port = 0;
    const char *colon = strrchr(text, ':'), *h = text;
    size_t hlen = strlen(text);
    bool bracket = text[0] == '[';
    if (bracket || (colon && strchr(text, ':') == colon)) { /* [v6]:port or v4:port */
        if (colon && (!bracket || colon[-1] == ']')) {
            char *end;
            long p = strtol(colon + 1, &end, 10);
            if (*end || end == colon + 1 || p < 1 || p > 65535)
                goto bad;
            *port = (int)p;
            hlen = (size_t)(colon - text);
        }
        if (bracket) {
            if (hlen < 2 || text[hlen - 1] != ']')
                goto bad;
            h++, hlen -= 2;
        }
    }
    struct ip_addr a;
    char buf[NET_TEXT_MAX];
    if (hlen >= sizeof buf || hlen >= host_size || (!*port && !port_optional))
        goto bad;
    memcpy(buf, h, hlen);
    buf[hlen] = '\0';
    if (ip_parse(buf, &a) != 0)
        goto bad;
    memcpy(host, buf, hlen + 1);
    return 0;
bad:
    fprintf(stderr, "parapet: --%s %s: must be ADDRESS%s (an IP address; [IPv6]:PORT)\n", name, text,
            port_optional ? "[:PORT]" : ":PORT");
    return -1;
}
