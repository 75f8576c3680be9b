/* appshield_status.c — AppShield status-code overwrite entries: which codes
 * may be overwritten and how one entry's fields fit together. Pure. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "api/ap/appshield.h"
#include "base/url.h"

const char *rule_overwritable_status(const json_t *value, long unused)
{
    (void)unused;
    json_int_t c = json_integer_value(value);
    if ((c >= 400 && c <= 417) || (c >= 500 && c <= 505))
        return NULL;
    return "must be a status code from 400 to 417 or from 500 to 505";
}

/* Only the characters RFC 3986 lets a URI hold (unreserved, reserved and
 * '%' starting a %XX escape): the URL is rendered into the domain port's web
 * server configuration, where a quote, a brace or a raw byte would not stay
 * inside it. url_parse refuses spaces, controls, '#' and '\\'. */
static bool uri_characters(const char *s)
{
    static const char allowed[] = "-._~:/?[]@!$&'()*+,;=";
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '%') {
            if (!isxdigit((unsigned char)s[1]) || !isxdigit((unsigned char)s[2]))
                return false;
            s += 2;
        } else if (c >= 0x80 || (!isalnum(c) && !strchr(allowed, c))) {
            return false;
        }
    }
    return true;
}

json_t *status_entry_make(long long code, long long rewrite, const char *page_type, const char *page_info,
                          int *code_out, char *err, size_t errlen)
{
    bool custom = strcmp(page_type, "2") == 0;
    if (!page_info)
        page_info = "";
    if (custom) {
        struct url_parts u;
        if (!*page_info) {
            *code_out = E_FIELD_MISSING;
            snprintf(err, errlen,
                     "error_page_info: is required when error_page_type is 2 (a custom page URL)");
            return NULL;
        }
        if (strlen(page_info) > APPSHIELD_URL_MAX || url_parse(page_info, &u) != 0) {
            *code_out = E_FIELD_INVALID;
            snprintf(err, errlen,
                     "error_page_info: must be an absolute http or https URL of at most %d characters",
                     APPSHIELD_URL_MAX);
            return NULL;
        }
        if (!uri_characters(page_info)) {
            *code_out = E_FIELD_INVALID;
            snprintf(err, errlen,
                     "error_page_info: must hold only the characters of a URL (RFC 3986); write others, "
                     "and a '%%' of the text, as %%XX escapes");
            return NULL;
        }
    } else if (*page_info) {
        *code_out = E_RULE;
        snprintf(err, errlen, "error_page_info: is taken only when error_page_type is 2 (a custom page URL)");
        return NULL;
    }
    return json_pack("{s:I,s:I,s:s,s:s}", "error_code", (json_int_t)code, "error_code_rewrite",
                     (json_int_t)rewrite, "error_page_type", page_type, "error_page_info", page_info);
}

long status_entry_find(const json_t *list, long long code)
{
    size_t i;
    json_t *v;
    json_array_foreach (list, i, v) {
        if (json_integer_value(json_object_get(v, "error_code")) == code)
            return (long)i;
    }
    return -1;
}
