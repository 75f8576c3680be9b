/* test_waf_csv.c — api/ap/waf_csv.h and base/json_flat.h: a WAF entry's
 * download row read by the flat reader is the row jansson reads, for
 * entries of every shape (the reader refusing what it leaves to jansson). */
#include "api/ap/waf_csv.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/json_flat.h"
#include "unit.h"

static int count_member(void *arg, const struct json_flat_member *m)
{
    (void)m;
    ++*(int *)arg;
    return 0;
}

/* json_flat_each's answer for text, and its members in *n. */
static int flat(const char *text, int *n)
{
    char buf[512];
    *n = 0;
    return json_flat_each(text, buf, count_member, n);
}

TEST(flat_reader_takes_strings_and_integers_only)
{
    int n;
    CHECK(flat("{}", &n) == 0 && n == 0);
    CHECK(flat(" { \"a\" : \"x\\\"y\\\\\\/\\n\" ,\n\"b\":-12 } ", &n) == 0 && n == 2);
    CHECK(flat("{\"a\":-0}", &n) == 0 && n == 1);
    CHECK(flat("{\"a\":\"\xc3\xa9\"}", &n) == 0);
    static const char *const refused[] = {
        "",
        "[]",
        "{",
        "{\"a\"}",
        "{\"a\":}",
        "{\"a\":1,}",
        "{,\"a\":1}",
        "{\"a\":1}x",
        "{\"a\":01}",
        "{\"a\":1.5}",
        "{\"a\":1e3}",
        "{\"a\":true}",
        "{\"a\":null}",
        "{\"a\":{}}",
        "{\"a\":[1]}",
        "{\"a\":99999999999999999999}",
        "{\"a\":\"\\u0041\"}",
        "{\"a\":\"x\\q\"}",
        "{\"a\":\"x}",
        "{\"a\\n\":1}",
        "{\"a\":\"\x01\"}",
        "{\"a\":\"\xc3\"}",
        "{\"a\":\"\xed\xa0\x80\"}",
        "{\"a\":-}",
        "{\"a\":+1}",
        "{\"a\" \"b\"}",
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        int rc = flat(refused[i], &n);
        if (rc != -1)
            fprintf(stderr, "  accepted: %s\n", refused[i]);
        CHECK(rc == -1);
    }
}

static uint32_t seed = 2026;
static uint32_t next(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

/* A random string: plain text, CSV's specials, JSON's escapes, control
 * characters, UTF-8 of two and four bytes, a formula's first character. */
static void random_text(char *out, size_t cap)
{
    static const char *const parts[] = {
        "a",  "Z",    "0",    " ", ",", "\"", "\\", "/", "\n",       "\r",
        "\t", "\x01", "\x1f", "=", "+", "-",  "@",  "'", "\xc3\xa9", "\xf0\x9f\x98\x80",
        "<x>"};
    size_t n = next() % 9, len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const char *p = parts[next() % (sizeof parts / sizeof *parts)];
        if (len + strlen(p) + 1 >= cap)
            break;
        memcpy(out + len, p, strlen(p) + 1);
        len += strlen(p);
    }
}

/* A member's value as JSON text: a string mostly, sometimes an integer,
 * now and then what the flat reader leaves to jansson. */
static char *random_value(void)
{
    char text[128];
    json_t *v;
    switch (next() % 12) {
    case 0: v = json_integer((json_int_t)(next() % 2000000000u) - 1000000000); break;
    case 1: v = json_integer((json_int_t)1764000000 + next() % 1000); break;
    case 2: v = next() % 4 ? json_integer(0) : json_real(1.5); break;
    case 3: v = next() % 3 ? json_integer(-7) : (next() % 2 ? json_true() : json_null()); break;
    default:
        random_text(text, sizeof text);
        v = json_string(text);
        break;
    }
    char *out = json_dumps(v, JSON_ENCODE_ANY);
    json_decref(v);
    return out;
}

TEST(rows_read_flat_are_rows_read_by_jansson)
{
    /* the member names: the columns (from the header line) and one more */
    struct strbuf header = {0};
    ap_waf_csv_header(&header);
    char names[512], *keys[32];
    size_t nkeys = 0;
    snprintf(names, sizeof names, "%s,other", strtok(header.s, "\r"));
    for (char *k = strtok(names, ","); k && nkeys < 32; k = strtok(NULL, ","))
        keys[nkeys++] = k;
    CHECK_INT(nkeys, 22);
    int flat_read = 0, rows = 0;
    for (int round = 0; round < 3000; round++) {
        struct strbuf text = {0};
        sb_add(&text, next() % 10 ? "{" : " {\n");
        int members = (int)(next() % 26);
        for (int m = 0; m < members; m++) {
            char *v = random_value();
            /* any order, names repeated now and then, spaces now and then */
            sb_printf(&text, "%s\"%s\"%s%s", m ? (next() % 8 ? "," : " ,\n ") : "", keys[next() % nkeys],
                      next() % 8 ? ":" : " : ", v);
            free(v);
        }
        sb_add(&text, next() % 10 ? "}" : " }\n");
        if (next() % 40 == 0)
            sb_add(&text, "x"); /* not JSON */
        int n;
        if (flat(sb_text(&text), &n) == 0)
            flat_read++;
        struct strbuf a = {0}, b = {0};
        ap_waf_csv_row(&a, sb_text(&text));
        ap_waf_csv_row_json(&b, sb_text(&text));
        if (strcmp(sb_text(&a), sb_text(&b)) != 0) {
            fprintf(stderr, "  entry %s\n  flat  %s\n  json  %s\n", sb_text(&text), sb_text(&a), sb_text(&b));
            unit_failed_checks++;
        }
        rows += b.len > 0;
        sb_free(&a);
        sb_free(&b);
        sb_free(&text);
    }
    sb_free(&header);
    /* both ways were taken */
    CHECK(flat_read > 300 && flat_read < 2900);
    CHECK(rows > 2000);
}

TEST(a_stored_entry_reads_as_its_row)
{
    struct strbuf b = {0};
    ap_waf_csv_header(&b);
    ap_waf_csv_row(
        &b, "{\"_id\":\"dw-1\",\"timestamp\":1764000000,\"attack_type\":\"sqli\",\"severity\":\"high\","
            "\"pattern\":\"SQL Injection, libinjection\",\"match_content\":\"'=HYPERLINK(\\\"x\\\")\","
            "\"src_ip\":\"198.51.100.7\",\"src_ip_cc\":\"NL\",\"domain\":\"d\",\"domain_id\":\"7\"}");
    CHECK_STR(
        sb_text(&b),
        "_id,timestamp,time,action,attack_type,severity,rule_id,pattern,domain,domain_id,host,http_method,"
        "http_path,location,match_content,match_post,src_ip,src_ip_cc,src_ip_city,http_x_forwarded_for_as,"
        "http_x_forwarded_for_lat\r\n"
        "dw-1,1764000000,2025-11-24 16:00:00,,sqli,high,,\"SQL Injection, libinjection\",d,7,,,,,"
        "\"'=HYPERLINK(\"\"x\"\")\",,198.51.100.7,NL,,,\r\n");
    sb_free(&b);
}

UNIT_MAIN(UNIT_CASE(flat_reader_takes_strings_and_integers_only),
          UNIT_CASE(rows_read_flat_are_rows_read_by_jansson), UNIT_CASE(a_stored_entry_reads_as_its_row))
