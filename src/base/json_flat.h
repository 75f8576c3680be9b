/* json_flat.h — reads a flat JSON object, members whose values are strings
 * or integers (as the store keeps a WAF log entry: jansson's compact dump),
 * without building it: a WAF event's download reads tens of thousands.
 * Whatever else it meets it leaves to jansson (the caller's fallback):
 * other values, \u escapes, escapes in keys, invalid UTF-8, trailing text. */
#ifndef PARAPET_BASE_JSON_FLAT_H
#define PARAPET_BASE_JSON_FLAT_H

#include <stdbool.h>
#include <stddef.h>

struct json_flat_member {
    const char *key; /* not NUL-terminated: key_len bytes */
    size_t key_len;
    bool is_int;
    long long num;   /* is_int */
    const char *str; /* !is_int: the decoded string, NUL-terminated */
};

/* Calls fn for each member in the text's order. buf (strlen(text) + 1
 * bytes) receives the decoded strings. 0 at the end; -1 when the text is
 * not such an object or uses what is left to jansson (before or after
 * some calls of fn); fn's non-zero answer stops it and is returned. */
int json_flat_each(const char *text, char *buf, int (*fn)(void *arg, const struct json_flat_member *m),
                   void *arg);

#endif
