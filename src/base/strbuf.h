/* strbuf.h — a growing string for rendering text (configuration files,
 * zone files). Allocation failure aborts: the texts are small. */
#ifndef PARAPET_STRBUF_H
#define PARAPET_STRBUF_H

#include <stddef.h>

struct strbuf {
    char *s; /* always NUL-terminated once anything was added */
    size_t len, cap;
};

void sb_add(struct strbuf *b, const char *text);
void sb_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text so far ("" when empty); stays owned by b. */
const char *sb_text(struct strbuf *b);
/* Hands the text to the caller (malloc'd) and empties b. */
char *sb_take(struct strbuf *b);
void sb_free(struct strbuf *b);

#endif
