/* url.h — the little URL handling the token flow needs: reading the scheme
 * and host of an absolute http(s) URL, deciding whether a redirect_uri is on
 * an app's registered host, and query-escaping a value. */
#ifndef PARAPET_URL_H
#define PARAPET_URL_H

#include <stdbool.h>
#include <stddef.h>

struct url_parts {
    bool https;
    char host[256]; /* lowercased; IPv6 literals keep their brackets */
};

/* Parses "http(s)://host[:port][/path][?query]". Refuses userinfo ("@"),
 * fragments, spaces and control characters. Returns 0 or -1. */
int url_parse(const char *url, struct url_parts *out);

/* redirect_uri must be on the registered host or one of its subdomains, and
 * use https unless the registered URL itself is plain http. */
bool url_redirect_allowed(const char *registered, const char *redirect);

/* Appends "name=value" (value %-escaped) to a URL with '?' or '&'. Returns
 * the new length, or -1 if out is too small. */
long url_append_param(char *out, size_t size, const char *name, const char *value);

#endif
