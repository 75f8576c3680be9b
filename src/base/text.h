/* text.h — small string rules shared by decoders and field checks. */
#ifndef PARAPET_TEXT_H
#define PARAPET_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Strict UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF). */
bool utf8_valid(const char *s, size_t n);
/* Number of code points in valid UTF-8. */
size_t utf8_length(const char *s);
/* Copies src into dst[size] and reports whether it fit whole. */
bool copy_text(char *dst, size_t size, const char *src);

/* Percent-decodes s[0..n) into out, which holds at least n bytes; with
 * plus_is_space, '+' means ' ' (form encoding). Returns the decoded length,
 * or -1 on a broken escape. */
long percent_decode(const char *s, size_t n, char *out, bool plus_is_space);

#endif
