/* test_decode.c — core/decode.h: query strings, JSON bodies and the form
 * sink that joins libmicrohttpd's PostProcessor pieces. */
#include "core/decode.h"

#include <stdlib.h>

#include "core/errors.h"
#include "unit.h"

/* Compact, key-sorted JSON text of v (or "NULL"). */
static const char *dump(const json_t *v)
{
    static char buf[8192];
    char *s = v ? json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;
    snprintf(buf, sizeof buf, "%s", s ? s : "NULL");
    free(s);
    return buf;
}

/* query_decode over a whole string: the fields, or "ERR <code> <message>". */
static const char *q(const char *s)
{
    static char out[8192];
    json_t *obj = json_object();
    struct decode_error e = {0};
    if (query_decode(s, strlen(s), obj, &e) != 0)
        snprintf(out, sizeof out, "ERR %ld %s", err_code(e.err), e.message);
    else
        snprintf(out, sizeof out, "%s", dump(obj));
    json_decref(obj);
    return out;
}

TEST(query_basics)
{
    CHECK_STR(q(""), "{}");
    CHECK_STR(q("a=1&b=two"), "{\"a\":\"1\",\"b\":\"two\"}");
    CHECK_STR(q("q=a+b%20c%2Bd"), "{\"q\":\"a b c+d\"}");
    CHECK_STR(q("x%20y=1"), "{\"x y\":\"1\"}"); /* names are decoded too */
    CHECK_STR(q("flag"), "{\"flag\":\"\"}");    /* no '=': an empty value */
    CHECK_STR(q("flag="), "{\"flag\":\"\"}");
    CHECK_STR(q("a=b=c"), "{\"a\":\"b=c\"}"); /* only the first '=' splits */
    CHECK_STR(q("%C3%A9=%E2%82%AC"), "{\"\xC3\xA9\":\"\xE2\x82\xAC\"}");
}

TEST(query_empty_pairs)
{
    CHECK_STR(q("&"), "{}");
    CHECK_STR(q("&&&"), "{}");
    CHECK_STR(q("a=1&&b=2&"), "{\"a\":\"1\",\"b\":\"2\"}");
    CHECK_STR(q("&a=1"), "{\"a\":\"1\"}");
    CHECK_STR(q("=v"), "ERR 40000001 a field has an empty name");
    CHECK_STR(q("a=1&=v"), "ERR 40000001 a field has an empty name");
}

TEST(query_arrays)
{
    CHECK_STR(q("a=1&a=2"), "{\"a\":[\"1\",\"2\"]}");
    CHECK_STR(q("a=1&b=x&a=2&a=3"), "{\"a\":[\"1\",\"2\",\"3\"],\"b\":\"x\"}");
    CHECK_STR(q("ids[]=x"), "{\"ids\":[\"x\"]}"); /* an array even with one value */
    CHECK_STR(q("ids[]=x&ids[]=y"), "{\"ids\":[\"x\",\"y\"]}");
    CHECK_STR(q("ids=x&ids[]=y"), "{\"ids\":[\"x\",\"y\"]}");
    CHECK_STR(q("ids[]=x&ids=y"), "{\"ids\":[\"x\",\"y\"]}");
    CHECK_STR(q("ids%5B%5D=x"), "{\"ids\":[\"x\"]}");
    CHECK_STR(q("ids[]"), "{\"ids\":[\"\"]}");
    CHECK_STR(q("a=&a="), "{\"a\":[\"\",\"\"]}");
}

TEST(query_broken_escapes)
{
    CHECK_STR(q("a=%zz"), "ERR 40000001 a: has a broken %-escape");
    CHECK_STR(q("a=50%"), "ERR 40000001 a: has a broken %-escape");
    CHECK_STR(q("a=%4"), "ERR 40000001 a: has a broken %-escape");
    CHECK_STR(q("%zz=1"), "ERR 40000001 a field name has a broken %-escape");
    CHECK_STR(q("a%=1"), "ERR 40000001 a field name has a broken %-escape");
    CHECK_STR(q("%"), "ERR 40000001 a field name has a broken %-escape");
}

TEST(query_nul_and_utf8)
{
    CHECK_STR(q("a=x%00y"), "ERR 40000005 a: must not contain a NUL byte");
    CHECK_STR(q("a%00b=1"), "ERR 40000001 a field name contains a NUL byte");
    CHECK_STR(q("a=%FF"), "ERR 40000005 a: is not valid UTF-8");
    CHECK_STR(q("a=%C0%80"), "ERR 40000005 a: is not valid UTF-8");    /* overlong NUL */
    CHECK_STR(q("a=%ED%A0%80"), "ERR 40000005 a: is not valid UTF-8"); /* surrogate */
    CHECK_STR(q("%FF=1"), "ERR 40000001 a field name is not valid UTF-8");
    CHECK_STR(q("a=\xC3\xA9"), "{\"a\":\"\xC3\xA9\"}"); /* raw UTF-8 bytes pass */
    CHECK_STR(q("a=\xC3"), "ERR 40000005 a: is not valid UTF-8");
}

TEST(query_partial_and_length)
{
    json_t *obj = json_object();
    struct decode_error e = {0};
    CHECK_INT(query_decode("a=1&b=%zz&c=3", 13, obj, &e), -1);
    CHECK_STR(dump(obj), "{\"a\":\"1\"}"); /* what came before the error stays */
    CHECK_INT(e.err, E_BAD_REQUEST);
    json_decref(obj);

    obj = json_object();
    CHECK_INT(query_decode("a=1&b=2", 3, obj, &e), 0); /* len is honoured */
    CHECK_STR(dump(obj), "{\"a\":\"1\"}");
    CHECK_INT(query_decode("a=%4", 3, obj, &e), -1); /* escape cut by len */
    json_decref(obj);
}

static char *repeat(const char *unit, int n, const char *tail)
{
    size_t ul = strlen(unit), tl = strlen(tail);
    char *s = malloc(ul * (size_t)n + tl + 1), *p = s;
    for (int i = 0; i < n; i++, p += ul)
        memcpy(p, unit, ul);
    memcpy(p, tail, tl + 1);
    return s;
}

TEST(query_key_length_limit)
{
    char *k128 = repeat("k", DECODE_MAX_KEY, "=1");
    char *k129 = repeat("k", DECODE_MAX_KEY + 1, "=1");
    char *k128a = repeat("k", DECODE_MAX_KEY, "[]=1");
    char *k300 = repeat("k", 300, "=1");
    char *k128pct = repeat("%6B", DECODE_MAX_KEY, "=1"); /* counted after decoding */
    CHECK(strncmp(q(k128), "{\"kkkk", 6) == 0);
    CHECK_STR(q(k129), "ERR 40000001 a field name is longer than 128 bytes");
    CHECK(strstr(q(k128a), "\":[\"1\"]}") != NULL);
    CHECK_STR(q(k300), "ERR 40000001 a field name is longer than 128 bytes");
    CHECK(strncmp(q(k128pct), "{\"kkkk", 6) == 0);
    free(k128);
    free(k129);
    free(k128a);
    free(k300);
    free(k128pct);
}

TEST(query_field_count_limit)
{
    /* DECODE_MAX_FIELDS values are fine whether distinct keys or repeats */
    char *buf = malloc(DECODE_MAX_FIELDS * 16 + 32), *p = buf;
    for (int i = 0; i < DECODE_MAX_FIELDS; i++)
        p += sprintf(p, "%sf%d=1", i ? "&" : "", i);
    json_t *obj = json_object();
    struct decode_error e = {0};
    CHECK_INT(query_decode(buf, strlen(buf), obj, &e), 0);
    CHECK_INT(json_object_size(obj), DECODE_MAX_FIELDS);
    strcpy(p, "&one_more=1");
    json_object_clear(obj);
    CHECK_INT(query_decode(buf, strlen(buf), obj, &e), -1);
    CHECK_INT(e.err, E_TOO_MANY_FIELDS);
    CHECK_STR(e.message, "more than 1000 fields or values");
    json_decref(obj);
    free(buf);

    char *same = repeat("a=1&", DECODE_MAX_FIELDS, "a=1");
    obj = json_object();
    CHECK_INT(query_decode(same, strlen(same), obj, &e), -1);
    CHECK_INT(e.err, E_TOO_MANY_FIELDS);
    CHECK_INT(json_array_size(json_object_get(obj, "a")), DECODE_MAX_FIELDS);
    json_decref(obj);
    free(same);
}

TEST(fields_add_direct)
{
    json_t *obj = json_object();
    struct decode_error e = {0};
    CHECK_INT(fields_add(obj, "name", 4, "x\0y", 1, &e), 0); /* lengths, not NULs, bound the input */
    CHECK_INT(fields_add(obj, "other[]junk", 5, "v", 1, &e), 0);
    CHECK_STR(dump(obj), "{\"name\":\"x\",\"other\":\"v\"}");
    CHECK_INT(fields_add(obj, "[]", 2, "v", 1, &e), 0); /* "[]" alone is a plain (odd) name */
    CHECK_INT(fields_add(obj, "", 0, "v", 1, &e), -1);
    CHECK_STR(e.message, "a field has an empty name");

    size_t big = DECODE_MAX_TEXT_VALUE + 1;
    char *val = malloc(big);
    memset(val, 'v', big);
    CHECK_INT(fields_add(obj, "big", 3, val, big - 1, &e), 0);
    CHECK_INT(json_string_length(json_object_get(obj, "big")), DECODE_MAX_TEXT_VALUE);
    CHECK_INT(fields_add(obj, "big2", 4, val, big, &e), -1);
    CHECK_INT(e.err, E_TOO_LARGE);
    CHECK_STR(e.message, "big2: value is longer than 1048576 bytes");
    free(val);
    json_decref(obj);
}

/* json_body_decode of a literal: the object, or "ERR <code> <message>". */
static const char *jb(const char *s)
{
    static char out[8192];
    struct decode_error e = {0};
    json_t *v = json_body_decode(s, strlen(s), &e);
    if (!v)
        snprintf(out, sizeof out, "ERR %ld %s", err_code(e.err), e.message);
    else
        snprintf(out, sizeof out, "%s", dump(v));
    json_decref(v);
    return out;
}

TEST(json_body)
{
    CHECK_STR(jb("{}"), "{}");
    CHECK_STR(jb(" {\"a\": 1, \"b\": [true, null], \"c\": {\"d\": \"x\"}} "),
              "{\"a\":1,\"b\":[true,null],\"c\":{\"d\":\"x\"}}");
    CHECK_STR(jb("[1]"), "ERR 40000002 body must be a JSON object");
    CHECK_STR(jb("\"x\""), "ERR 40000002 body must be a JSON object");
    CHECK_STR(jb("1"), "ERR 40000002 body must be a JSON object");
    CHECK_STR(jb("null"), "ERR 40000002 body must be a JSON object");
    CHECK(strncmp(jb("{\"a\":1,\"a\":2}"), "ERR 40000002 body is not valid JSON: duplicate object key", 57) ==
          0);
    CHECK(strncmp(jb(""), "ERR 40000002 body is not valid JSON: ", 37) == 0);
    CHECK(strncmp(jb("{\"a\":"), "ERR 40000002 body is not valid JSON: ", 37) == 0);
    CHECK(strstr(jb("{\n\"a\":\n}"), "(line 3, column 1)") != NULL);
    CHECK(strncmp(jb("{} x"), "ERR 40000002", 12) == 0);                /* trailing garbage */
    CHECK(strncmp(jb("{\"a\":\"\\u0000\"}"), "ERR 40000002", 12) == 0); /* NUL in a string */
    CHECK(strncmp(jb("{\"a\":\"\xFF\"}"), "ERR 40000002", 12) == 0);    /* invalid UTF-8 */
    CHECK(strncmp(jb("{\"a\":NaN}"), "ERR 40000002", 12) == 0);

    struct decode_error e = {0};
    json_t *v = json_body_decode("{\"a\":1}garbage", 7, &e); /* len is honoured */
    CHECK_STR(dump(v), "{\"a\":1}");
    json_decref(v);
}

/* ---- the form sink ---- */

struct files_seen {
    int n;
    char text[512];
};

static void on_file(void *ctx, char *key, char *filename, char *content_type, char *data, size_t len)
{
    struct files_seen *fs = ctx;
    size_t used = strlen(fs->text);
    snprintf(fs->text + used, sizeof fs->text - used, "[%s|%s|%s|%zu|%.*s]", key, filename,
             content_type ? content_type : "-", len, (int)len, data ? data : "");
    fs->n++;
    free(key);
    free(filename);
    free(content_type);
    free(data);
}

static void sink_init(struct form_sink *s, struct files_seen *fs, size_t max_file)
{
    memset(s, 0, sizeof *s);
    memset(fs, 0, sizeof *fs);
    s->fields = json_object();
    s->max_file = max_file;
    s->on_file = on_file;
    s->ctx = fs;
}

static void sink_done(struct form_sink *s)
{
    form_sink_release(s);
    json_decref(s->fields);
}

/* Feeds text value `v` of `key` in pieces of `step` bytes. */
static int feed(struct form_sink *s, const char *key, const char *file, const char *v, size_t step)
{
    size_t n = strlen(v), off = 0;
    do {
        size_t k = n - off < step ? n - off : step;
        if (form_sink_piece(s, key, file, file ? "text/plain" : NULL, v + off, off, k) != 0)
            return -1;
        off += k;
    } while (off < n);
    return 0;
}

TEST(form_split_values)
{
    struct form_sink s;
    struct files_seen fs;
    sink_init(&s, &fs, 1024);
    CHECK_INT(form_sink_piece(&s, "a", NULL, NULL, "hel", 0, 3), 0);
    CHECK_INT(form_sink_piece(&s, "a", NULL, NULL, "lo ", 3, 3), 0);
    CHECK_INT(form_sink_piece(&s, "a", NULL, NULL, "world", 6, 5), 0);
    CHECK_INT(form_sink_piece(&s, "b", NULL, NULL, "2", 0, 1), 0);
    CHECK_INT(form_sink_piece(&s, "c", NULL, NULL, "", 0, 0), 0); /* an empty value */
    CHECK_INT(form_sink_finish(&s), 0);
    CHECK_STR(dump(s.fields), "{\"a\":\"hello world\",\"b\":\"2\",\"c\":\"\"}");
    CHECK_INT(fs.n, 0);
    sink_done(&s);
}

TEST(form_many_pieces)
{
    /* 100 KB in pieces of every size from 1 to 97 bytes, offsets growing */
    size_t n = 100000;
    char *big = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        big[i] = (char)('a' + i % 26);
    big[n] = '\0';
    for (size_t step = 1; step < 98; step += 24) {
        struct form_sink s;
        struct files_seen fs;
        sink_init(&s, &fs, 1024);
        CHECK_INT(feed(&s, "big", NULL, big, step), 0);
        CHECK_INT(form_sink_finish(&s), 0);
        const char *got = json_string_value(json_object_get(s.fields, "big"));
        CHECK(got && strcmp(got, big) == 0);
        sink_done(&s);
    }
    free(big);
}

TEST(form_repeated_keys)
{
    struct form_sink s;
    struct files_seen fs;
    sink_init(&s, &fs, 1024);
    CHECK_INT(feed(&s, "a", NULL, "first", 2), 0);
    CHECK_INT(feed(&s, "a", NULL, "second", 4), 0); /* offset 0 again: a new value */
    CHECK_INT(feed(&s, "ids[]", NULL, "x", 1), 0);
    CHECK_INT(form_sink_finish(&s), 0);
    CHECK_STR(dump(s.fields), "{\"a\":[\"first\",\"second\"],\"ids\":[\"x\"]}");
    sink_done(&s);
}

TEST(form_files)
{
    struct form_sink s;
    struct files_seen fs;
    sink_init(&s, &fs, 64);
    CHECK_INT(form_sink_piece(&s, "cert", "a.pem", "application/x-pem-file", "AB", 0, 2), 0);
    CHECK_INT(form_sink_piece(&s, "cert", "a.pem", "application/x-pem-file", "CD", 2, 2), 0);
    CHECK_INT(form_sink_piece(&s, "name", NULL, NULL, "n", 0, 1), 0);
    CHECK_INT(fs.n, 1); /* handed over as soon as the next part starts */
    CHECK_INT(form_sink_piece(&s, "key", "k.pem", NULL, "", 0, 0), 0);
    CHECK_INT(form_sink_finish(&s), 0);
    CHECK_INT(fs.n, 2);
    CHECK_STR(fs.text, "[cert|a.pem|application/x-pem-file|4|ABCD][key|k.pem|-|0|]");
    CHECK_STR(dump(s.fields), "{\"name\":\"n\"}"); /* files are not text fields */
    sink_done(&s);
}

TEST(form_file_cap)
{
    struct form_sink s;
    struct files_seen fs;
    sink_init(&s, &fs, 8);
    CHECK_INT(feed(&s, "cert", "a.pem", "12345678", 3), 0); /* exactly the cap */
    CHECK_INT(form_sink_piece(&s, "cert2", "b.pem", NULL, "1234", 0, 4), 0);
    CHECK_INT(form_sink_piece(&s, "cert2", "b.pem", NULL, "56789", 4, 5), -1);
    CHECK(s.failed);
    CHECK_INT(s.error.err, E_TOO_LARGE);
    CHECK_STR(s.error.message, "cert2: value is too large");
    CHECK_INT(form_sink_piece(&s, "x", NULL, NULL, "1", 0, 1), -1); /* stays stopped */
    CHECK_INT(form_sink_finish(&s), -1);
    CHECK_INT(fs.n, 1);
    sink_done(&s); /* frees the unfinished part (ASan checks) */
}

TEST(form_text_cap)
{
    struct form_sink s;
    struct files_seen fs;
    sink_init(&s, &fs, 0);
    size_t n = DECODE_MAX_TEXT_VALUE;
    char *big = malloc(n + 1);
    memset(big, 'x', n);
    big[n] = '\0';
    CHECK_INT(form_sink_piece(&s, "t", NULL, NULL, big, 0, n), 0);
    CHECK_INT(form_sink_piece(&s, "t", NULL, NULL, "y", n, 1), -1);
    CHECK_INT(s.error.err, E_TOO_LARGE);
    CHECK_STR(s.error.message, "t: value is too large");
    sink_done(&s);
    /* a text value is not bound by max_file (0 here) */
    sink_init(&s, &fs, 0);
    CHECK_INT(form_sink_piece(&s, "t", NULL, NULL, big, 0, n), 0);
    CHECK_INT(form_sink_finish(&s), 0);
    CHECK_INT(json_string_length(json_object_get(s.fields, "t")), n);
    sink_done(&s);
    free(big);
}

TEST(form_bad_input)
{
    struct form_sink s;
    struct files_seen fs;
    sink_init(&s, &fs, 8);
    CHECK_INT(form_sink_piece(&s, NULL, NULL, NULL, "v", 0, 1), -1);
    CHECK_INT(s.error.err, E_MALFORMED_BODY);
    CHECK_STR(s.error.message, "a form part has no field name");
    sink_done(&s);

    sink_init(&s, &fs, 8);
    CHECK_INT(form_sink_piece(&s, "a", NULL, NULL, "\xC3", 0, 1), 0);
    CHECK_INT(form_sink_piece(&s, "a", NULL, NULL, "\xA9", 1, 1), 0); /* a code point split in two */
    CHECK_INT(form_sink_piece(&s, "b", NULL, NULL, "\xFF", 0, 1), 0);
    CHECK_INT(form_sink_finish(&s), -1); /* checked when the value ends */
    CHECK_INT(s.error.err, E_FIELD_INVALID);
    CHECK_STR(s.error.message, "b: is not valid UTF-8");
    CHECK_STR(dump(s.fields), "{\"a\":\"\xC3\xA9\"}");
    sink_done(&s);

    sink_init(&s, &fs, 8);
    CHECK_INT(form_sink_piece(&s, "a", NULL, NULL, "x\0y", 0, 3), 0);
    CHECK_INT(form_sink_piece(&s, "b", NULL, NULL, "1", 0, 1), -1); /* finishing "a" fails */
    CHECK_STR(s.error.message, "a: must not contain a NUL byte");
    CHECK_INT(form_sink_finish(&s), -1);
    sink_done(&s);
}

UNIT_MAIN(UNIT_CASE(query_basics), UNIT_CASE(query_empty_pairs), UNIT_CASE(query_arrays),
          UNIT_CASE(query_broken_escapes), UNIT_CASE(query_nul_and_utf8), UNIT_CASE(query_partial_and_length),
          UNIT_CASE(query_key_length_limit), UNIT_CASE(query_field_count_limit), UNIT_CASE(fields_add_direct),
          UNIT_CASE(json_body), UNIT_CASE(form_split_values), UNIT_CASE(form_many_pieces),
          UNIT_CASE(form_repeated_keys), UNIT_CASE(form_files), UNIT_CASE(form_file_cap),
          UNIT_CASE(form_text_cap), UNIT_CASE(form_bad_input))
