/* waf_audit.c — see waf_audit.h. */
#include "dataplane/nginx/waf_audit.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "waf/waf.h"

enum { TEXT_MAX = 2048 }; /* the ingest's limit for a WAF entry's strings */

static bool is_verdict(long id)
{
    return id == 949110 || id == 959100 || id == 980130 || id == 20192 || id == 20197;
}

/* A header of the request, whatever its case. */
static const char *header(const json_t *headers, const char *name)
{
    const char *k;
    json_t *v;
    json_object_foreach ((json_t *)headers, k, v)
        if (strcasecmp(k, name) == 0)
            return json_string_value(v);
    return NULL;
}

static json_t *text(const char *s, size_t len)
{
    if (len > TEXT_MAX) { /* cut, but never inside a UTF-8 sequence */
        len = TEXT_MAX;
        while (len && ((unsigned char)s[len] & 0xC0) == 0x80)
            len--;
    }
    return json_stringn(s, len);
}

/* "Matched Data: X found within ARGS:id: Y" -> location ARGS:id, content Y. */
static void split_data(const char *data, json_t *rec)
{
    const char *within = strstr(data, " found within ");
    if (!within) {
        json_object_set_new(rec, "match_content", text(data, strlen(data)));
        return;
    }
    const char *loc = within + strlen(" found within ");
    const char *sep = strstr(loc, ": ");
    size_t loc_len = sep ? (size_t)(sep - loc) : strlen(loc);
    json_object_set_new(rec, "location", text(loc, loc_len));
    if (sep)
        json_object_set_new(rec, "match_content", text(sep + 2, strlen(sep + 2)));
}

static const char *severity_word(const char *sev)
{
    int n = sev && isdigit((unsigned char)*sev) ? atoi(sev) : 5;
    return n <= 2 ? "high" : n <= 4 ? "medium" : "low";
}

/* ModSecurity's ctime-like local time ("Wed Nov 25 06:15:01 2026"). */
static int64_t entry_time(const char *stamp, int64_t now)
{
    struct tm tm = {.tm_isdst = -1};
    const char *end = stamp ? strptime(stamp, "%a %b %d %H:%M:%S %Y", &tm) : NULL;
    if (!end || *end)
        return now;
    time_t t = mktime(&tm);
    return t <= 0 || t > now + 60 ? now : (int64_t)t;
}

/* unique_id "<16 hex>-<hex>": the domain port's id into port. */
static bool port_of(const char *uid, char port[17])
{
    if (!uid || strlen(uid) > 64 || strspn(uid, "0123456789abcdef") != 16 || uid[16] != '-' ||
        strspn(uid + 17, "0123456789abcdef") != strlen(uid + 17) || !uid[17])
        return false;
    memcpy(port, uid, 16);
    port[16] = '\0';
    return true;
}

int waf_audit_record(const char *line, size_t len, int64_t now, json_t **record)
{
    json_error_t e;
    json_t *root = json_loadb(line, len, 0, &e);
    json_t *tx = json_object_get(root, "transaction");
    if (!json_is_object(tx)) {
        json_decref(root);
        return -1;
    }
    const char *uid = json_string_value(json_object_get(tx, "unique_id"));
    char port[17];
    json_t *msgs = json_object_get(tx, "messages"), *first = NULL;
    size_t i;
    json_t *m;
    json_array_foreach (msgs, i, m) {
        const char *id = json_string_value(json_object_get(json_object_get(m, "details"), "ruleId"));
        if (id && !first && !is_verdict(atol(id)))
            first = m;
    }
    if (!first)
        first = json_array_get(msgs, 0);
    if (!port_of(uid, port) || !first) {
        json_decref(root);
        return 0;
    }
    const json_t *req = json_object_get(tx, "request"), *details = json_object_get(first, "details");
    const char *rule = json_string_value(json_object_get(details, "ruleId"));
    const char *uri = json_string_value(json_object_get(req, "uri"));
    const char *host = header(json_object_get(req, "headers"), "host");
    const char *client = json_string_value(json_object_get(tx, "client_ip"));
    const char *method = json_string_value(json_object_get(req, "method"));
    const char *message = json_string_value(json_object_get(first, "message"));
    const char *data = json_string_value(json_object_get(details, "data"));
    long code = (long)json_integer_value(json_object_get(json_object_get(tx, "response"), "http_code"));
    json_t *rec = json_pack("{s:s,s:s,s:I,s:s,s:s,s:s,s:s,s:s}", "kind", "waf_log", "_id", uid, "timestamp",
                            (json_int_t)entry_time(json_string_value(json_object_get(tx, "time_stamp")), now),
                            "domain_port_id", port, "src_ip", client ? client : "", "attack_type",
                            waf_owasp_attack_type(rule ? atol(rule) : 0), "severity",
                            severity_word(json_string_value(json_object_get(details, "severity"))), "action",
                            code >= 400 ? "block" : "log");
    json_object_set_new(rec, "rule_id", json_string(rule ? rule : ""));
    if (method)
        json_object_set_new(rec, "http_method", text(method, strlen(method)));
    if (uri)
        json_object_set_new(rec, "http_path", text(uri, strcspn(uri, "?")));
    if (host)
        json_object_set_new(rec, "host", text(host, strlen(host)));
    if (message)
        json_object_set_new(rec, "pattern", text(message, strlen(message)));
    if (data && *data)
        split_data(data, rec);
    json_decref(root);
    *record = rec;
    return 1;
}
