/* dashboard_calc.c — see dashboard_calc.h. */
#include "api/ap/dashboard_calc.h"

#include <string.h>

#include "api/dashboard/calc.h"
#include "base/timefmt.h"

enum { MINUTE = 60, HOUR = 3600, DAY = 86400 };

const struct ap_bw_period *ap_bw_period(const char *name)
{
    static const struct ap_bw_period periods[] = {
        {"hour", MINUTE, 2 * HOUR, MINUTE, "more than 1 minute and less than 2 hours"},
        {"day", HOUR, 2 * DAY, 10 * MINUTE, "more than 1 hour and less than 2 days"},
        {"week", DAY, 7 * DAY, HOUR, "more than 1 day and less than 7 days"},
        {"month", 7 * DAY, 31 * DAY, HOUR, "more than 7 days and less than 31 days"},
    };
    for (size_t i = 0; name && i < sizeof periods / sizeof *periods; i++)
        if (strcmp(name, periods[i].name) == 0)
            return &periods[i];
    return NULL;
}

static void rates(const struct tel_bw_minute *m, enum ap_bw_kind kind, int64_t *in, int64_t *out)
{
    *in = kind == AP_BW_RAW ? m->raw_in : m->clean_in;
    *out = kind == AP_BW_RAW ? m->raw_out : m->clean_out;
}

void ap_bw_series(const struct tel_bw_minute *m, size_t n, enum ap_bw_kind kind, int64_t from, int64_t to,
                  int64_t step, int64_t now, json_t **in, json_t **out, int64_t *max)
{
    *in = json_array();
    *out = json_array();
    *max = 0;
    int64_t current = time_floor(now, MINUTE); /* minutes from here on are not complete */
    size_t i = 0;
    for (int64_t t = time_floor(from, step); t < to; t += step) {
        int64_t sum_in = 0, sum_out = 0, v_in, v_out;
        for (; i < n && m[i].minute < t + step; i++) {
            if (m[i].minute < t || m[i].minute >= current)
                continue;
            rates(&m[i], kind, &v_in, &v_out);
            sum_in += v_in;
            sum_out += v_out;
            if (m[i].minute >= from && m[i].minute < to) {
                if (v_in > *max)
                    *max = v_in;
                if (v_out > *max)
                    *max = v_out;
            }
        }
        int64_t end = t + step < current ? t + step : current;
        int64_t minutes = end > t ? (end - t) / MINUTE : 0;
        if (minutes == 0 && end > t)
            minutes = 1;
        json_array_append_new(*in, json_pack("{s:I,s:I}", "time", (json_int_t)t, "value",
                                             (json_int_t)(minutes ? sum_in / minutes : 0)));
        json_array_append_new(*out, json_pack("{s:I,s:I}", "time", (json_int_t)t, "value",
                                              (json_int_t)(minutes ? sum_out / minutes : 0)));
    }
}

json_t *ap_waf_type_summary(const json_t *rows, int64_t all)
{
    enum { TOP = 3 };
    const char *keys[TOP + 1];
    int64_t counts[TOP + 1];
    size_t n = 0, i;
    json_t *row;
    int64_t listed = 0;
    json_array_foreach (rows, i, row) {
        const char *key = json_string_value(json_object_get(row, "key"));
        if (n == TOP || !key || strcmp(key, "others") == 0)
            continue;
        keys[n] = key;
        counts[n] = json_integer_value(json_object_get(row, "count"));
        listed += counts[n++];
    }
    keys[n] = "others";
    counts[n] = all > listed ? all - listed : 0;
    int pct[TOP + 1];
    dash_percents(counts, n + 1, all, pct);
    json_t *summary = json_object();
    for (i = 0; i <= n; i++)
        json_object_set_new(summary, keys[i],
                            json_pack("{s:I,s:s,s:i}", "count", (json_int_t)counts[i], "name",
                                      ap_attack_type_name(keys[i]), "percent", pct[i]));
    return summary;
}

const char *ap_attack_type_name(const char *key)
{
    static const char *const names[][2] = {
        {"anti_leech", "Anti-leech"},
        {"coldfusion_injection", "ColdFusion injection"},
        {"components_leak", "Component information leak"},
        {"csrf", "Cross-site request forgery"},
        {"email_injection", "Email injection"},
        {"encryption", "Encryption"},
        {"error_code_handing", "Error code handling"},
        {"force_remove_header", "Forced header removal"},
        {"ldap_injection", "LDAP injection"},
        {"oscmd", "OS command injection"},
        {"others", "Others"},
        {"path_traversal", "Path traversal"},
        {"phpcode_injection", "PHP code injection"},
        {"port_security", "Port security"},
        {"sensitive_leak", "Sensitive data leak"},
        {"session_fixation", "Session fixation"},
        {"sqli", "SQL injection"},
        {"ssi", "Server-side include injection"},
        {"unvalidated_redirects", "Unvalidated redirect"},
        {"webscanner", "Web scanner"},
        {"xml_injection", "XML injection"},
        {"xss", "Cross-site scripting"},
        {"xxe_injection", "XML external entity injection"},
    };
    for (size_t i = 0; key && i < sizeof names / sizeof *names; i++)
        if (strcmp(key, names[i][0]) == 0)
            return names[i][1];
    return key ? key : "";
}

void ap_csv_cell(struct strbuf *b, const char *value)
{
    if (!value)
        value = "";
    bool formula = strchr("=+-@", value[0]) && value[0] != '\0';
    formula |= (unsigned char)value[0] < 0x20 && value[0] != '\0';
    bool quote = formula || strpbrk(value, ",\"\r\n") != NULL || value[0] == ' ';
    if (!quote) {
        sb_add(b, value);
        return;
    }
    sb_add(b, formula ? "\"'" : "\"");
    for (const char *p = value; *p;) { /* each " doubled */
        const char *q = strchr(p, '"');
        if (!q) {
            sb_add(b, p);
            break;
        }
        sb_printf(b, "%.*s\"\"", (int)(q - p), p);
        p = q + 1;
    }
    sb_add(b, "\"");
}
