/* strbuf.c — see strbuf.h. */
#include "base/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(struct strbuf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s)
        abort();
    b->s = s;
    b->cap = cap;
}

void sb_add(struct strbuf *b, const char *text)
{
    size_t n = strlen(text);
    reserve(b, n);
    memcpy(b->s + b->len, text, n + 1);
    b->len += n;
}

void sb_printf(struct strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

const char *sb_text(struct strbuf *b)
{
    return b->s ? b->s : "";
}

char *sb_take(struct strbuf *b)
{
    char *s = b->s ? b->s : strdup("");
    memset(b, 0, sizeof *b);
    return s;
}

void sb_free(struct strbuf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}
