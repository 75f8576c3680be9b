/* url.c — see url.h. */
#include "base/url.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int url_parse(const char *url, struct url_parts *out)
{
    memset(out, 0, sizeof *out);
    for (const char *p = url; *p; p++)
        if ((unsigned char)*p <= 0x20 || *p == 0x7f || *p == '#' || *p == '\\')
            return -1;
    const char *rest;
    if (strncasecmp(url, "https://", 8) == 0) {
        out->https = true;
        rest = url + 8;
    } else if (strncasecmp(url, "http://", 7) == 0) {
        rest = url + 7;
    } else {
        return -1;
    }
    size_t alen = strcspn(rest, "/?");
    if (alen == 0 || memchr(rest, '@', alen))
        return -1;
    size_t hlen;
    if (rest[0] == '[') {
        const char *close = memchr(rest, ']', alen);
        if (!close)
            return -1;
        hlen = (size_t)(close - rest) + 1;
    } else {
        const char *colon = memchr(rest, ':', alen);
        hlen = colon ? (size_t)(colon - rest) : alen;
    }
    if (hlen == 0 || hlen >= sizeof out->host)
        return -1;
    if (hlen < alen) { /* a port: digits only */
        if (rest[hlen] != ':' || hlen + 1 == alen)
            return -1;
        for (size_t i = hlen + 1; i < alen; i++)
            if (!isdigit((unsigned char)rest[i]))
                return -1;
    }
    for (size_t i = 0; i < hlen; i++)
        out->host[i] = (char)tolower((unsigned char)rest[i]);
    out->host[hlen] = '\0';
    if (out->host[hlen - 1] == '.') /* "example.com." is example.com */
        out->host[hlen - 1] = '\0';
    return out->host[0] ? 0 : -1;
}

bool url_redirect_allowed(const char *registered, const char *redirect)
{
    struct url_parts reg, red;
    if (url_parse(registered, &reg) != 0 || url_parse(redirect, &red) != 0)
        return false;
    if (reg.https && !red.https)
        return false;
    size_t lr = strlen(reg.host), ld = strlen(red.host);
    if (ld == lr)
        return strcmp(reg.host, red.host) == 0;
    /* a subdomain: "x.app.example" under "app.example", never for IP literals */
    return reg.host[0] != '[' && !isdigit((unsigned char)reg.host[lr - 1]) && ld > lr + 1 &&
           red.host[ld - lr - 1] == '.' && strcmp(red.host + ld - lr, reg.host) == 0;
}

long url_append_param(char *out, size_t size, const char *name, const char *value)
{
    size_t n = strlen(out);
    int w = snprintf(out + n, size - n, "%c%s=", strchr(out, '?') ? '&' : '?', name);
    if (w < 0 || (size_t)w >= size - n)
        return -1;
    n += (size_t)w;
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        bool plain = isalnum(*p) || strchr("-._~", *p);
        if (n + (plain ? 1 : 3) >= size)
            return -1;
        if (plain) {
            out[n++] = (char)*p;
        } else {
            out[n++] = '%';
            out[n++] = hex[*p >> 4];
            out[n++] = hex[*p & 15];
        }
    }
    out[n] = '\0';
    return (long)n;
}
