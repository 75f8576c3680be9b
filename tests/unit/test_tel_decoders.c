/* test_tel_decoders.c — the simdjson record reader against jansson
 * (fuzz/tel_decoders_diff.h) on the inputs where two JSON parsers are most
 * likely to part: escapes, surrogates, invalid UTF-8, duplicate members,
 * numbers at and past 64 bits, what follows the object. Each must give both
 * decoders the same answer; fast() records must also be taken by simdjson's
 * reader itself (else the fast path would be a dead one), and what jansson
 * refuses to parse must be declined by it. */
#include "../../fuzz/tel_decoders_diff.h"

#include <stdlib.h>

#include "unit.h"

#define FLOW_HEAD "{\"kind\":\"flow\",\"flow_id\":\"f1\",\"time\":1764000000,\"src_ip\":\"198.51.100.7\"," \
                  "\"dst_ip\":\"192.0.2.1\",\"packets\":2,"

static struct tel_simd *simd;

/* Both decoders on text (len: -1 for strlen); whether simdjson's reader
 * took it; the message in msg ("" when accepted). */
static bool same(const char *text, long len, char *msg)
{
    if (!simd)
        simd = tel_simd_new();
    size_t n = len < 0 ? strlen(text) : (size_t)len;
    const char *why = tel_decoders_differ(simd, text, n);
    if (why) {
        fprintf(stderr, "  %s: %.*s\n", why, (int)n, text);
        CHECK(why == NULL);
    }
    struct tel_fields f;
    struct tel_record r;
    struct tel_locator l;
    msg[0] = '\0';
    tel_decode_line(simd, text, n, TEL_DIFF_NOW, &r, &l, msg, TEL_MSG_MAX);
    json_decref(l.waf_entry);
    return tel_simd_fields(simd, text, n, &f) == 0;
}

static void fast(const char *text, const char *want)
{
    char msg[TEL_MSG_MAX];
    bool taken = same(text, -1, msg);
    if (!taken)
        fprintf(stderr, "  not taken by simdjson's reader: %s\n", text);
    CHECK(taken);
    CHECK_STR(msg, want);
}

/* Refused with a message starting with want_prefix. Where that is a
 * parse error, simdjson's reader must have declined it. */
static void slow(const char *text, long len, const char *want_prefix)
{
    char msg[TEL_MSG_MAX];
    bool taken = same(text, len, msg);
    bool parse_error = strncmp(want_prefix, "not a JSON object", 17) == 0;
    if (taken && parse_error)
        fprintf(stderr, "  taken by simdjson's reader: %s\n", text);
    CHECK(!(taken && parse_error));
    if (strncmp(msg, want_prefix, strlen(want_prefix)) != 0)
        fprintf(stderr, "  message %s, want %s...\n", msg, want_prefix);
    CHECK(strncmp(msg, want_prefix, strlen(want_prefix)) == 0);
}

TEST(records_of_every_kind)
{
    fast(FLOW_HEAD "\"router\":\"r\",\"bytes\":10,\"app\":null}\n", "");
    fast(" \t" FLOW_HEAD "\"router\":\"r\",\"bytes\":10} \r\n", "");
    fast("{\"kind\":\"ddos_event\",\"alert_id\":\"a1\",\"attack_type\":\"TCP SYN\",\"site_ip\":\"192.0.2.0/24\","
         "\"start_time\":1764000000,\"end_time\":null,\"max_bps\":9223372036854775807}",
         "");
    fast("{\"kind\":\"waf_log\",\"_id\":\"w1\",\"timestamp\":1764000000,\"domain_port_id\":\"dp\",\"src_ip\":"
         "\"203.0.113.5\",\"attack_type\":\"sqli\",\"match_content\":\"1' or \\\"1\\\"=\\\"1\\\"\"}",
         "");
    fast("{\"kind\":\"flow_down\",\"alert_id\":\"d1\",\"router_name\":\"e\",\"site_id\":\"s\",\"start_time\":1764000000}",
         "");
    fast("{\"kind\":\"bandwidth\",\"site_id\":\"s\",\"time\":1764000000,\"raw_in\":1,\"raw_out\":2,\"clean_in\":1,"
         "\"clean_out\":-0}",
         "");
}

TEST(escapes_and_surrogates)
{
    fast(FLOW_HEAD "\"router\":\"r\\\"\\\\\\/\\b\\f\\n\\r\\t\",\"bytes\":1}", "");
    fast(FLOW_HEAD "\"router\":\"\\u00e9\\u4E2D\\ud83d\\ude00\",\"bytes\":1}", "");
    fast(FLOW_HEAD "\"rout\\u0065r\":\"r\",\"bytes\":1}", ""); /* an escaped member name */
    slow(FLOW_HEAD "\"router\":\"\\ud800\",\"bytes\":1}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"\\udc00\",\"bytes\":1}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"\\ud800\\u0041\",\"bytes\":1}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"\\ud800x\",\"bytes\":1}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"a\\u0000b\",\"bytes\":1}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"\\x41\",\"bytes\":1}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"\\u12G4\",\"bytes\":1}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"a\tb\",\"bytes\":1}", -1, "not a JSON object: "); /* a raw control character */
}

TEST(invalid_utf8)
{
    slow(FLOW_HEAD "\"router\":\"\xff\",\"bytes\":1}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"\xc0\xaf\",\"bytes\":1}", -1, "not a JSON object: "); /* overlong */
    slow(FLOW_HEAD "\"router\":\"\xed\xa0\x80\",\"bytes\":1}", -1, "not a JSON object: "); /* a surrogate */
    slow(FLOW_HEAD "\"router\":\"\xe4\xb8\",\"bytes\":1}", -1, "not a JSON object: ");     /* cut short */
    slow(FLOW_HEAD "\"router\":\"\xf4\x90\x80\x80\",\"bytes\":1}", -1, "not a JSON object: "); /* > U+10FFFF */
    slow(FLOW_HEAD "\"rou\xfftr\":\"r\",\"bytes\":1}", -1, "not a JSON object: ");
    fast(FLOW_HEAD "\"router\":\"\xe4\xb8\xad\xf0\x9f\x98\x80\",\"bytes\":1}", "");
}

TEST(duplicate_and_unknown_members)
{
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":1,\"bytes\":2}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":1,\"byt\\u0065s\":1}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":1,\"kind\":\"flow\"}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":1,\"colour\":\"red\"}", -1, "colour: is not a member");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":1,\"node\":\"n\"}", -1, "node: is not a member");
    /* an unknown member with a value jansson refuses: the parse error wins */
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":1,\"x\":[1e999]}", -1, "not a JSON object: ");
}

TEST(numbers)
{
    char msg[TEL_MSG_MAX];
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":9223372036854775807}", -1, "bytes: must be an integer from 0 to");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":9223372036854775808}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":-9223372036854775809}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":123456789012345678901234567890}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":1.0}", -1, "bytes: must be an integer");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":1e2}", -1, "bytes: must be an integer");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":1e999}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":01}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":-}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":1x}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":true}", -1, "bytes: must be an integer");
    slow(FLOW_HEAD "\"router\":\"r\",\"bytes\":nul}", -1, "not a JSON object: ");
    slow(FLOW_HEAD "\"router\":5,\"bytes\":1}", -1, "router: must be a string");
    same(FLOW_HEAD "\"router\":\"r\",\"bytes\":-0}", -1, msg); /* 0 either way */
    CHECK_STR(msg, "");
}

TEST(what_follows_and_what_is_not_an_object)
{
    const char rec[] = FLOW_HEAD "\"router\":\"r\",\"bytes\":1}";
    char buf[512];
    static const char *const tails[] = {" x", "{}", "]", "}", ",", " {\"a\":1}", "\n\n1", "/", NULL};
    for (const char *const *t = tails; *t; t++) {
        snprintf(buf, sizeof buf, "%s%s", rec, *t);
        slow(buf, -1, "not a JSON object: ");
    }
    memcpy(buf, rec, sizeof rec);
    slow(buf, (long)sizeof rec, "not a JSON object: "); /* a NUL byte after it */
    slow(rec, (long)sizeof rec - 2, "not a JSON object: ");
    slow("[1]", -1, "record: must be a JSON object");
    slow("\"flow\"", -1, "not a JSON object: ");
    slow("null", -1, "not a JSON object: ");
    slow("", 0, "not a JSON object: ");
    slow("{}", -1, "kind: is required");
    slow("{\"kind\":7}", -1, "kind: must be one of");
    slow("{\"kind\":null}", -1, "kind: must be one of");
    /* nesting deeper than either parser's limit, in an unknown member */
    size_t n = 0;
    static char deep[8192];
    n += (size_t)snprintf(deep, sizeof deep, "{\"kind\":\"flow\",\"x\":");
    for (int i = 0; i < 3000; i++)
        deep[n++] = '[';
    for (int i = 0; i < 3000; i++)
        deep[n++] = ']';
    deep[n++] = '}';
    slow(deep, (long)n, "not a JSON object: ");
}

UNIT_MAIN(UNIT_CASE(records_of_every_kind), UNIT_CASE(escapes_and_surrogates), UNIT_CASE(invalid_utf8),
          UNIT_CASE(duplicate_and_unknown_members), UNIT_CASE(numbers), UNIT_CASE(what_follows_and_what_is_not_an_object))
