/* dest.c — see dest.h. */
#include "webhook/dest.h"

#include <curl/curl.h>
#include <stdio.h>
#include <string.h>

static bool private_range(const struct ip_addr *a)
{
    static const char *const blocks[] = {"10.0.0.0/8",    "172.16.0.0/12", "192.168.0.0/16",
                                         "100.64.0.0/10", "fc00::/7",      NULL};
    struct ip_addr v = *a;
    ip_unmap(&v);
    for (const char *const *b = blocks; *b; b++) {
        struct cidr c;
        if (cidr_parse(*b, 0, &c) == 0 && cidr_contains_ip(&c, &v))
            return true;
    }
    return false;
}

bool webhook_addr_allowed(const struct webhook_dest_policy *p, const struct ip_addr *a)
{
    struct ip_addr v = *a;
    ip_unmap(&v);
    for (int i = 0; p && i < p->n_allow; i++)
        if (cidr_contains_ip(&p->allow[i], &v))
            return true;
    return !ip_is_special(&v) && !private_range(&v);
}

const char *webhook_url_check(const struct webhook_dest_policy *p, const char *url)
{
    CURLU *u = curl_url();
    const char *why = NULL;
    char *scheme = NULL, *host = NULL, *user = NULL, *password = NULL, *fragment = NULL;
    if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK)
        why = "must be an absolute https URL";
    else if (curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK || strcmp(scheme, "https") != 0)
        why = "must be an https URL";
    else if (curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK || !host[0])
        why = "must name a host";
    else if (curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK ||
             curl_url_get(u, CURLUPART_PASSWORD, &password, 0) == CURLUE_OK)
        why = "must not carry a user name or password";
    else if (curl_url_get(u, CURLUPART_FRAGMENT, &fragment, 0) == CURLUE_OK)
        why = "must not carry a fragment";
    else {
        char literal[NET_TEXT_MAX];
        size_t n = strlen(host);
        bool bracketed = n > 2 && host[0] == '[' && host[n - 1] == ']';
        snprintf(literal, sizeof literal, "%.*s", bracketed ? (int)(n - 2) : (int)n,
                 bracketed ? host + 1 : host);
        struct ip_addr a;
        if (ip_parse(literal, &a) == 0 && !webhook_addr_allowed(p, &a))
            why = "must reach a public address (loopback, link-local, multicast and private ranges are "
                  "refused)";
    }
    curl_free(scheme);
    curl_free(host);
    curl_free(user);
    curl_free(password);
    curl_free(fragment);
    curl_url_cleanup(u);
    return why;
}
