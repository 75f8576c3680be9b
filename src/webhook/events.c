/* events.c — see events.h. */
#include "webhook/events.h"

#include <string.h>

static const char *const names[] = {WEBHOOK_EVENT_NAMES, NULL};

unsigned webhook_events_parse(const json_t *list)
{
    unsigned bits = 0;
    size_t i;
    json_t *v;
    json_array_foreach ((json_t *)list, i, v)
        for (unsigned b = 0; names[b]; b++)
            if (json_is_string(v) && strcmp(json_string_value(v), names[b]) == 0)
                bits |= 1u << b;
    return bits;
}

json_t *webhook_events_names(unsigned bits)
{
    json_t *out = json_array();
    for (unsigned b = 0; names[b]; b++)
        if (bits & (1u << b))
            json_array_append_new(out, json_string(names[b]));
    return out;
}
