/* notes.c — see notes.h. */
#include "dataplane/notes.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void dataplane_note(json_t *notes, const char *plane, const char *fmt, ...)
{
    if (!notes)
        return;
    char text[512];
    int head = snprintf(text, sizeof text, "%s: ", plane);
    if (head < 0 || (size_t)head >= sizeof text)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text + head, sizeof text - (size_t)head, fmt, ap);
    va_end(ap);
    size_t i;
    json_t *v;
    json_array_foreach (notes, i, v)
        if (strcmp(json_string_value(v), text) == 0)
            return;
    json_array_append_new(notes, json_string(text));
}
