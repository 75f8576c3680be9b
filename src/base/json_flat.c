/* json_flat.c — see json_flat.h. */
#include "base/json_flat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* The string at p (after its opening quote) decoded into *out, which moves
 * past its NUL; the text after the closing quote, or NULL. */
static const char *read_string(const char *p, char **out)
{
    char *o = *out;
    for (;;) {
        unsigned char c = (unsigned char)*p;
        if (c == '"')
            break;
        if (c < 0x20) /* the end of the text, or a raw control character (refused by JSON) */
            return NULL;
        if (c != '\\') {
            *o++ = (char)c;
            p++;
            continue;
        }
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *e = p[1] ? strchr(from, p[1]) : NULL;
        if (!e)
            return NULL; /* \u (left to jansson) or not an escape */
        *o++ = to[e - from];
        p += 2;
    }
    *o++ = '\0';
    *out = o;
    return p + 1;
}

/* An integer as JSON writes it (no leading zeros, no fraction or
 * exponent) that fits a long long; the text after it, or NULL. */
static const char *read_int(const char *p, long long *v)
{
    const char *d = p + (*p == '-');
    if (*d < '0' || *d > '9' || (d[0] == '0' && d[1] >= '0' && d[1] <= '9'))
        return NULL;
    char *end;
    errno = 0;
    *v = strtoll(p, &end, 10);
    if (errno || *end == '.' || *end == 'e' || *end == 'E')
        return NULL;
    return end;
}

int json_flat_each(const char *text, char *buf, int (*fn)(void *arg, const struct json_flat_member *m),
                   void *arg)
{
    if (!utf8_valid(text, strlen(text)))
        return -1;
    const char *p = skip_space(text);
    if (*p++ != '{')
        return -1;
    p = skip_space(p);
    bool first = true;
    while (*p != '}') {
        if (!first) {
            if (*p++ != ',')
                return -1;
            p = skip_space(p);
        }
        first = false;
        struct json_flat_member m = {0};
        if (*p++ != '"')
            return -1;
        m.key = p;
        while (*p && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
            p++;
        if (*p != '"')
            return -1; /* escapes in a key: left to jansson */
        m.key_len = (size_t)(p - m.key);
        p = skip_space(p + 1);
        if (*p++ != ':')
            return -1;
        p = skip_space(p);
        if (*p == '"') {
            m.str = buf;
            p = read_string(p + 1, &buf);
        } else {
            m.is_int = true;
            p = read_int(p, &m.num);
        }
        if (!p)
            return -1;
        int rc = fn(arg, &m);
        if (rc)
            return rc;
        p = skip_space(p);
    }
    return *skip_space(p + 1) ? -1 : 0;
}
