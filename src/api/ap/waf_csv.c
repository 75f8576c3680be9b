/* waf_csv.c — see waf_csv.h. */
#include "api/ap/waf_csv.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/ap/dashboard_calc.h"
#include "base/json_flat.h"
#include "base/timefmt.h"

/* The CSV columns: the log entry's members, and its time as text (UTC). */
static const char *const COLUMNS[] = {"_id",
                                      "timestamp",
                                      "time",
                                      "action",
                                      "attack_type",
                                      "severity",
                                      "rule_id",
                                      "pattern",
                                      "domain",
                                      "domain_id",
                                      "host",
                                      "http_method",
                                      "http_path",
                                      "location",
                                      "match_content",
                                      "match_post",
                                      "src_ip",
                                      "src_ip_cc",
                                      "src_ip_city",
                                      "http_x_forwarded_for_as",
                                      "http_x_forwarded_for_lat"};
enum { NCOLUMNS = sizeof COLUMNS / sizeof *COLUMNS, TIME_COLUMN = 2 };

void ap_waf_csv_header(struct strbuf *b)
{
    for (size_t c = 0; c < NCOLUMNS; c++)
        sb_printf(b, "%s%s", c ? "," : "", COLUMNS[c]);
    sb_add(b, "\r\n");
}

/* One cell as the row shows it: a string, an integer, or nothing (""). */
struct cell {
    const char *str;
    bool is_int;
    long long num;
};

static void put_row(struct strbuf *b, const struct cell *cells)
{
    for (size_t c = 0; c < NCOLUMNS; c++) {
        char number[32];
        const char *value = cells[c].str;
        if (cells[c].is_int) {
            snprintf(number, sizeof number, "%lld", cells[c].num);
            value = number;
        }
        if (c)
            sb_add(b, ",");
        ap_csv_cell(b, value);
    }
    sb_add(b, "\r\n");
}

void ap_waf_csv_row_json(struct strbuf *b, const char *entry)
{
    json_t *o = json_loads(entry, 0, NULL);
    if (!json_is_object(o)) {
        json_decref(o);
        return;
    }
    struct cell cells[NCOLUMNS] = {{0}};
    char time_text[TIME_TEXT_LEN];
    for (size_t c = 0; c < NCOLUMNS; c++) {
        json_t *v = json_object_get(o, COLUMNS[c]);
        if (c == TIME_COLUMN) {
            time_format_text(json_integer_value(json_object_get(o, "timestamp")), 0, time_text);
            cells[c].str = time_text;
        } else if (json_is_integer(v)) {
            cells[c] = (struct cell){.is_int = true, .num = json_integer_value(v)};
        } else {
            cells[c].str = json_string_value(v);
        }
    }
    put_row(b, cells);
    json_decref(o);
}

struct flat_row {
    struct cell cells[NCOLUMNS];
    long long timestamp; /* 0 unless the last "timestamp" is an integer, as json_integer_value */
};

/* A member into its column (the last of a name wins, as in jansson's
 * object); "time" is no member's but the timestamp's. */
static int take_member(void *arg, const struct json_flat_member *m)
{
    struct flat_row *row = arg;
    if (m->key_len == 9 && memcmp(m->key, "timestamp", 9) == 0)
        row->timestamp = m->is_int ? m->num : 0;
    for (size_t c = 0; c < NCOLUMNS; c++)
        if (c != TIME_COLUMN && strlen(COLUMNS[c]) == m->key_len &&
            memcmp(COLUMNS[c], m->key, m->key_len) == 0) {
            row->cells[c] = (struct cell){.str = m->str, .is_int = m->is_int, .num = m->num};
            break;
        }
    return 0;
}

void ap_waf_csv_row(struct strbuf *b, const char *entry)
{
    size_t len = strlen(entry);
    char stack[4096], *buf = len < sizeof stack ? stack : malloc(len + 1);
    struct flat_row row;
    memset(&row, 0, sizeof row);
    if (buf && json_flat_each(entry, buf, take_member, &row) == 0) {
        char time_text[TIME_TEXT_LEN];
        time_format_text(row.timestamp, 0, time_text);
        row.cells[TIME_COLUMN].str = time_text;
        put_row(b, row.cells);
    } else {
        ap_waf_csv_row_json(b, entry);
    }
    if (buf != stack)
        free(buf);
}
