/* waf_headers.h — WAF secure headers of a domain port (gaps A2.8, B.4.17):
 * the header sets of the modes low, standard and strict, the validation of
 * a custom policy, the POST body, and the GET shape.
 *
 * Stored state (waf_headers_default, changed by waf_headers_apply):
 *   {"status": 0, "mode": "standard", "custom": {<the six members>}}
 * A custom policy has one member per header, "" meaning "not sent":
 *   strict_transport_security, x_frame_options, x_content_type_options,
 *   referrer_policy, content_security_policy, permissions_policy
 * POST {WAF}/secure-headers takes {"status", "mode", "custom"}, each
 * optional; "custom" members given replace those members.
 * GET answers the state plus "headers": {"Header-Name": "value", ...}, the
 * headers actually added (none while status is 0). */
#ifndef PARAPET_WAF_HEADERS_H
#define PARAPET_WAF_HEADERS_H

#include <jansson.h>
#include <stddef.h>

enum {
    WAF_CSP_MAX = 4096, /* bytes of Content-Security-Policy */
    WAF_PP_MAX = 2048,  /* bytes of Permissions-Policy */
};

/* The headers of a mode ("low", "standard", "strict"; "custom" with its
 * policy) as a new object {"Header-Name": "value"} in a fixed order; NULL
 * for an unknown mode. */
json_t *waf_headers_set(const char *mode, const json_t *custom);

json_t *waf_headers_default(void);

/* Validates a POST body and applies it to state: 0, or -1 with err naming
 * the member ("custom.x_frame_options: must be DENY or SAMEORIGIN"); state
 * is unchanged on error. Values are stored in canonical form. */
int waf_headers_apply(json_t *state, const json_t *body, char *err, size_t errlen);

/* GET {WAF}/secure-headers: {"status", "mode", "custom", "headers"}. */
json_t *waf_headers_view(const json_t *state);

#endif
