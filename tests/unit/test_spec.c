/* test_spec.c — core/spec.h spec_check: types from text and JSON, defaults,
 * required fields, ranges, lengths in characters, ONE_OF, ITEMS, COMMA_LIST,
 * LOOSE, nested objects, unknown fields, where a field may be sent, files.
 *
 * JSON in this file is written with ' for " (see J) to stay readable. */
#include "core/spec.h"

#include <stdlib.h>

#include "core/errors.h"
#include "unit.h"

/* Parses JSON text written with ' for "; NULL stays NULL. */
static json_t *J(const char *s)
{
    if (!s)
        return NULL;
    char *t = strdup(s);
    for (char *p = t; *p; p++)
        if (*p == '\'')
            *p = '"';
    json_error_t je;
    json_t *v = json_loads(t, 0, &je);
    if (!v)
        fprintf(stderr, "  bad fixture %s: %s\n", s, je.text);
    free(t);
    return v;
}

/* Runs spec_check: the normalised fields (with ' for "), or
 * "ERR <code> <message>". */
static const char *run(const struct field_spec *specs, const char *query, const char *body, bool body_is_json,
                       const char *path, const char *const *files)
{
    static char out[4096];
    json_t *q = J(query), *b = J(body), *p = J(path), *res = (json_t *)1;
    struct spec_error e;
    memset(&e, 'x', sizeof e);
    spec_check(specs, q, b, body_is_json, p, files, &res, &e);
    if (e.err != E_OK) {
        snprintf(out, sizeof out, "ERR %ld %s", err_code(e.err), e.message);
        if (res != NULL)
            snprintf(out, sizeof out, "ERR: out not NULL on failure");
    } else {
        char *s = json_dumps(res, JSON_COMPACT | JSON_SORT_KEYS);
        for (char *c = s; *c; c++)
            if (*c == '"')
                *c = '\'';
        snprintf(out, sizeof out, "%s", s);
        free(s);
        if (e.message[0])
            snprintf(out, sizeof out, "ERR: message set on success");
    }
    json_decref(q);
    json_decref(b);
    json_decref(p);
    json_decref(res);
    return out;
}

#define TQ(specs, q) run(specs, q, NULL, false, NULL, NULL) /* query (text) */
#define TF(specs, b) run(specs, NULL, b, false, NULL, NULL) /* form body (text) */
#define TJ(specs, b) run(specs, NULL, b, true, NULL, NULL)  /* JSON body */

static const struct field_spec basic[] = {
    F_STR("name", REQUIRED, LEN(1, 5)),
    F_INT("n", RANGE(1, 100)),
    F_BOOL("b"),
    F_STRS("tags", ITEMS(1, 3), LEN(1, 4)),
    F_INTS("ports", RANGE(1, 65535)),
    F_ANY("extra"),
    F_END,
};

TEST(text_types)
{
    CHECK_STR(TQ(basic, "{'name':'abc'}"), "{'name':'abc'}");
    CHECK_STR(TQ(basic, "{'name':'abc','n':'5','b':'true','tags':'x','ports':['80','443'],'extra':'e'}"),
              "{'b':true,'extra':'e','n':5,'name':'abc','ports':[80,443],'tags':['x']}");
    CHECK_STR(TF(basic, "{'name':'abc','n':'100','b':'0','tags':['a','bb','ccc']}"),
              "{'b':false,'n':100,'name':'abc','tags':['a','bb','ccc']}");
    CHECK_STR(TQ(basic, "{'name':'a','b':'1'}"), "{'b':true,'name':'a'}");
    CHECK_STR(TQ(basic, "{'name':'a','b':'false'}"), "{'b':false,'name':'a'}");
}

TEST(text_integers)
{
    CHECK_STR(TQ(basic, "{'name':'a','n':'1'}"), "{'n':1,'name':'a'}");
    CHECK_STR(TQ(basic, "{'name':'a','n':'0'}"), "ERR 40000005 n: must be an integer from 1 to 100");
    CHECK_STR(TQ(basic, "{'name':'a','n':'101'}"), "ERR 40000005 n: must be an integer from 1 to 100");
    CHECK_STR(TQ(basic, "{'name':'a','n':'-5'}"), "ERR 40000005 n: must be an integer from 1 to 100");
    static const char *bad[] = {
        "05", "", " 5", "5 ", "+5", "1.5", "1e2", "abc", "-", "0x10", "01000000000000000000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char q[128];
        snprintf(q, sizeof q, "{'name':'a','n':'%s'}", bad[i]);
        CHECK_STR(TQ(basic, q), "ERR 40000004 n: must be an integer");
    }
    /* too many digits for an integer: out of the range, where there is one */
    CHECK_STR(TQ(basic, "{'name':'a','n':'1000000000000000000'}"), "ERR 40000005 n: must be an integer from 1 to 100");
    CHECK_STR(TQ(basic, "{'name':'a','n':'-99999999999999999999'}"),
              "ERR 40000005 n: must be an integer from 1 to 100");
    static const struct field_spec wide[] = {F_INT("v"), F_END};
    CHECK_STR(TQ(wide, "{'v':'1000000000000000000'}"), "ERR 40000004 v: must be an integer");
    CHECK_STR(TQ(wide, "{'v':'-999999999999999999'}"), "{'v':-999999999999999999}");
    CHECK_STR(TQ(wide, "{'v':'999999999999999999'}"), "{'v':999999999999999999}");
    static const struct field_spec exact[] = {F_INT("v", RANGE(7, 7)), F_END};
    CHECK_STR(TQ(exact, "{'v':'8'}"), "ERR 40000005 v: must be 7");
}

TEST(text_booleans_and_repeats)
{
    CHECK_STR(TQ(basic, "{'name':'a','b':'yes'}"), "ERR 40000004 b: must be true or false");
    CHECK_STR(TQ(basic, "{'name':'a','b':'TRUE'}"), "ERR 40000004 b: must be true or false");
    CHECK_STR(TQ(basic, "{'name':'a','b':''}"), "ERR 40000004 b: must be true or false");
    CHECK_STR(TQ(basic, "{'name':['a','b']}"), "ERR 40000007 name: must be given once");
    CHECK_STR(TQ(basic, "{'name':'a','n':['1','2']}"), "ERR 40000007 n: must be given once");
}

TEST(text_arrays)
{
    CHECK_STR(TQ(basic, "{'name':'a','tags':['a','b','c','d']}"),
              "ERR 40000005 tags: must have 1 to 3 items");
    CHECK_STR(TQ(basic, "{'name':'a','tags':'toolong'}"), "ERR 40000005 tags[0]: must be 1 to 4 characters");
    CHECK_STR(TQ(basic, "{'name':'a','tags':['ok','']}"), "ERR 40000005 tags[1]: must not be empty");
    CHECK_STR(TQ(basic, "{'name':'a','ports':'0'}"),
              "ERR 40000005 ports[0]: must be an integer from 1 to 65535");
    CHECK_STR(TQ(basic, "{'name':'a','ports':['1','x']}"), "ERR 40000004 ports[1]: must be an integer");
    CHECK_STR(TQ(basic, "{'name':'a','ports':'65535'}"), "{'name':'a','ports':[65535]}");
}

TEST(string_lengths_in_characters)
{
    CHECK_STR(TQ(basic, "{'name':''}"), "ERR 40000005 name: must not be empty");
    CHECK_STR(TQ(basic, "{'name':'abcdef'}"), "ERR 40000005 name: must be 1 to 5 characters");
    CHECK_STR(TQ(basic, "{'name':'\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9'}"), /* 5 characters, 10 bytes */
              "{'name':'\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9'}");
    CHECK_STR(TQ(basic, "{'name':'\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9'}"),
              "ERR 40000005 name: must be 1 to 5 characters");
    CHECK_STR(
        TQ(basic,
           "{'name':'\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80'}"),
        "{'name':'\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80'}");

    static const struct field_spec s[] = {F_STR("id", LEN(16, 16)), F_STR("free"), F_STR("req", REQUIRED),
                                          F_END};
    CHECK_STR(TQ(s, "{'req':'x','id':'abc'}"), "ERR 40000005 id: must be 16 characters");
    CHECK_STR(TQ(s, "{'req':'x','id':'0123456789abcdef'}"), "{'id':'0123456789abcdef','req':'x'}");
    CHECK_STR(TQ(s, "{'req':'x','free':''}"), "{'free':'','req':'x'}"); /* optional may be empty */
    CHECK_STR(TQ(s, "{'req':''}"), "ERR 40000005 req: must not be empty");
    char q[1200];
    snprintf(q, sizeof q, "{'req':'x','free':'%01024d'}", 0); /* the default maximum */
    CHECK(strncmp(TQ(s, q), "{'free':'0000", 13) == 0);
    snprintf(q, sizeof q, "{'req':'x','free':'%01025d'}", 0);
    CHECK_STR(TQ(s, q), "ERR 40000005 free: must be 0 to 1024 characters");
}

TEST(missing_and_defaults)
{
    CHECK_STR(TQ(basic, "{}"), "ERR 40000003 name: is required");
    CHECK_STR(TJ(basic, "{'name':null}"), "ERR 40000003 name: is required");
    static const struct field_spec d[] = {
        F_INT("page", DEFAULT("1"), RANGE(1, 100)),
        F_STR("mode", DEFAULT("\"fast\"")),
        F_STRS("list", DEFAULT("[]")),
        F_BOOL("on", DEFAULT("true")),
        F_STR("none"),
        F_END,
    };
    CHECK_STR(TQ(d, "{}"), "{'list':[],'mode':'fast','on':true,'page':1}");
    CHECK_STR(TJ(d, "{'page':null,'mode':null,'none':null}"), "{'list':[],'mode':'fast','on':true,'page':1}");
    CHECK_STR(TQ(d, "{'page':'3','mode':'slow','on':'0'}"), "{'list':[],'mode':'slow','on':false,'page':3}");
    CHECK_STR(TQ(d, "{'page':'0'}"), "ERR 40000005 page: must be an integer from 1 to 100");
    static const struct field_spec empty[] = {F_END};
    CHECK_STR(TQ(empty, "{}"), "{}");
    CHECK_STR(run(empty, NULL, NULL, false, NULL, NULL), "{}");
}

TEST(json_types)
{
    CHECK_STR(TJ(basic, "{'name':'abc','n':5,'b':true,'tags':['x'],'ports':[80],'extra':{'any':[1,null]}}"),
              "{'b':true,'extra':{'any':[1,null]},'n':5,'name':'abc','ports':[80],'tags':['x']}");
    CHECK_STR(TJ(basic, "{'name':5}"), "ERR 40000004 name: must be a string");
    CHECK_STR(TJ(basic, "{'name':['a']}"), "ERR 40000004 name: must be a string");
    CHECK_STR(TJ(basic, "{'name':'a','n':'5'}"), "ERR 40000004 n: must be an integer"); /* not LOOSE */
    CHECK_STR(TJ(basic, "{'name':'a','n':5.0}"), "ERR 40000004 n: must be an integer");
    CHECK_STR(TJ(basic, "{'name':'a','n':true}"), "ERR 40000004 n: must be an integer");
    CHECK_STR(TJ(basic, "{'name':'a','n':1000}"), "ERR 40000005 n: must be an integer from 1 to 100");
    CHECK_STR(TJ(basic, "{'name':'a','b':1}"), "ERR 40000004 b: must be a boolean");
    CHECK_STR(TJ(basic, "{'name':'a','b':'true'}"), "ERR 40000004 b: must be a boolean");
    CHECK_STR(TJ(basic, "{'name':'a','tags':'x'}"), "ERR 40000004 tags: must be an array of strings");
    CHECK_STR(TJ(basic, "{'name':'a','tags':[1]}"), "ERR 40000004 tags[0]: must be a string");
    CHECK_STR(TJ(basic, "{'name':'a','tags':[]}"), "ERR 40000005 tags: must not be empty");
    CHECK_STR(TJ(basic, "{'name':'a','ports':['80']}"), "ERR 40000004 ports[0]: must be an integer");
    CHECK_STR(TJ(basic, "{'name':'a','ports':{}}"), "ERR 40000004 ports: must be an array of integers");
    CHECK_STR(TJ(basic, "{'name':'a','ports':[]}"), "{'name':'a','ports':[]}");
}

TEST(loose_fields)
{
    static const struct field_spec l[] = {F_INT("n", LOOSE), F_BOOL("b", LOOSE), F_STRS("s", LOOSE),
                                          F_INTS("ns", LOOSE), F_END};
    CHECK_STR(TJ(l, "{'n':'7','b':'true','s':'x','ns':['1',2]}"), "{'b':true,'n':7,'ns':[1,2],'s':['x']}");
    CHECK_STR(TJ(l, "{'n':7,'b':1}"), "{'b':true,'n':7}");
    CHECK_STR(TJ(l, "{'b':0}"), "{'b':false}");
    CHECK_STR(TJ(l, "{'b':'0'}"), "{'b':false}");
    CHECK_STR(TJ(l, "{'b':2}"), "ERR 40000004 b: must be a boolean");
    CHECK_STR(TJ(l, "{'b':'yes'}"), "ERR 40000004 b: must be true or false");
    CHECK_STR(TJ(l, "{'n':'07'}"), "ERR 40000004 n: must be an integer");
    CHECK_STR(TJ(l, "{'n':1.5}"), "ERR 40000004 n: must be an integer");
}

/* (ONE_OF and SUB are compound literals: constant only at file scope) */
static const struct field_spec o[] = {F_STR("kind", ONE_OF("a", "bb", "ccc")),
                                      F_STRS("kinds", ONE_OF("x", "y")), F_END};

TEST(one_of)
{
    CHECK_STR(TQ(o, "{'kind':'bb'}"), "{'kind':'bb'}");
    CHECK_STR(TQ(o, "{'kind':'d'}"), "ERR 40000005 kind: must be one of a, bb, ccc");
    CHECK_STR(TQ(o, "{'kind':'BB'}"), "ERR 40000005 kind: must be one of a, bb, ccc");
    CHECK_STR(TQ(o, "{'kind':''}"), "ERR 40000005 kind: must be one of a, bb, ccc");
    CHECK_STR(TQ(o, "{'kinds':['x','y','x']}"), "{'kinds':['x','y','x']}");
    CHECK_STR(TQ(o, "{'kinds':['x','z']}"), "ERR 40000005 kinds[1]: must be one of x, y");
}

TEST(items_and_comma_lists)
{
    static const struct field_spec c[] = {F_STRS("ids", COMMA_LIST, LEN(1, 8)), F_STRS("plain"),
                                          F_INTS("nums", COMMA_LIST, ITEMS(0, 3)), F_END};
    CHECK_STR(TQ(c, "{'ids':'a,b,c'}"), "{'ids':['a','b','c']}");
    CHECK_STR(TQ(c, "{'ids':'a'}"), "{'ids':['a']}");
    CHECK_STR(TQ(c, "{'ids':'a,,b'}"), "ERR 40000005 ids[1]: must not be empty");
    CHECK_STR(TQ(c, "{'ids':'a,'}"), "ERR 40000005 ids[1]: must not be empty");
    CHECK_STR(TQ(c, "{'ids':['a,b','c']}"), "{'ids':['a,b','c']}"); /* repeated keys are not split */
    CHECK_STR(TQ(c, "{'plain':'a,b'}"), "{'plain':['a,b']}");
    CHECK_STR(TQ(c, "{'nums':'1,2,3'}"), "{'nums':[1,2,3]}");
    CHECK_STR(TQ(c, "{'nums':'1,2,3,4'}"), "ERR 40000005 nums: must have 0 to 3 items");
    CHECK_STR(TQ(c, "{'nums':'1, 2'}"), "{'nums':[1,2]}"); /* spaces around items are trimmed */
    CHECK_STR(TQ(c, "{'ids':' a ,b '}"), "{'ids':['a','b']}");
    CHECK_STR(TQ(c, "{'nums':''}"), "{'nums':[]}"); /* "" is an empty list */
    CHECK_STR(TQ(c, "{'nums':'1,x'}"), "ERR 40000004 nums[1]: must be an integer");
    CHECK_STR(TF(c, "{'ids':'a,b'}"), "{'ids':['a','b']}"); /* a form body is text too */
    CHECK_STR(TJ(c, "{'ids':'a,b'}"), "ERR 40000004 ids: must be an array of strings");

    /* the default item limit */
    json_t *arr = json_array();
    for (int i = 0; i <= SPEC_DEFAULT_MAX_ITEMS; i++)
        json_array_append_new(arr, json_string("v"));
    json_t *q = json_pack("{s:O}", "plain", arr), *out;
    struct spec_error e;
    spec_check(c, q, NULL, false, NULL, NULL, &out, &e);
    CHECK_INT(e.err, E_FIELD_INVALID);
    CHECK_STR(e.message, "plain: must have 0 to 1000 items");
    json_array_remove(arr, 0);
    spec_check(c, q, NULL, false, NULL, NULL, &out, &e);
    CHECK_INT(e.err, E_OK);
    CHECK_INT(json_array_size(json_object_get(out, "plain")), SPEC_DEFAULT_MAX_ITEMS);
    json_decref(out);
    json_decref(q);
    json_decref(arr);
}

static const char *multiple_of(const json_t *v, long arg)
{
    return json_integer_value(v) % arg ? "must be a multiple of the step" : NULL;
}

static const char *no_spaces(const json_t *v, long arg)
{
    (void)arg;
    return strchr(json_string_value(v), ' ') ? "must not contain spaces" : NULL;
}

TEST(rules)
{
    static const struct field_spec r[] = {F_INT("x", RULE(multiple_of, 3)),
                                          F_INTS("xs", RULE(multiple_of, 5)),
                                          F_STR("s", LEN(1, 4), RULE(no_spaces, 0)), F_END};
    CHECK_STR(TQ(r, "{'x':'9','xs':['5','10'],'s':'ab'}"), "{'s':'ab','x':9,'xs':[5,10]}");
    CHECK_STR(TQ(r, "{'x':'4'}"), "ERR 40000005 x: must be a multiple of the step");
    CHECK_STR(TQ(r, "{'xs':['5','7']}"), "ERR 40000005 xs[1]: must be a multiple of the step");
    CHECK_STR(TQ(r, "{'s':'a b'}"), "ERR 40000005 s: must not contain spaces");
    CHECK_STR(TQ(r, "{'s':'a b c'}"), "ERR 40000005 s: must be 1 to 4 characters"); /* length first */
}

static const struct field_spec nested[] = {
    F_OBJ("cfg", SUB(F_BOOL("enabled", REQUIRED), F_STRS("ip", ITEMS(0, 2)),
                     F_OBJ("inner", SUB(F_INT("depth", RANGE(0, 3)))))),
    F_OBJS("rules", ITEMS(1, 2), SUB(F_STR("name", REQUIRED, LEN(1, 3)), F_INT("prio", DEFAULT("5")))),
    F_END,
};

TEST(nested_objects)
{
    CHECK_STR(TJ(nested, "{'cfg':{'enabled':true,'ip':['192.0.2.1'],'inner':{'depth':2}}}"),
              "{'cfg':{'enabled':true,'inner':{'depth':2},'ip':['192.0.2.1']}}");
    CHECK_STR(TJ(nested, "{'cfg':{'enabled':false,'inner':{'depth':null}}}"),
              "{'cfg':{'enabled':false,'inner':{}}}");
    CHECK_STR(TJ(nested, "{'cfg':{'enabled':true,'bogus':1}}"),
              "ERR 40000006 cfg.bogus: is not a field of this object");
    CHECK_STR(TJ(nested, "{'cfg':{'enabled':true,'inner':{'x':1}}}"),
              "ERR 40000006 cfg.inner.x: is not a field of this object");
    CHECK_STR(TJ(nested, "{'cfg':{}}"), "ERR 40000003 cfg.enabled: is required");
    CHECK_STR(TJ(nested, "{'cfg':{'enabled':null}}"), "ERR 40000003 cfg.enabled: is required");
    CHECK_STR(TJ(nested, "{'cfg':{'enabled':'yes'}}"), "ERR 40000004 cfg.enabled: must be a boolean");
    CHECK_STR(TJ(nested, "{'cfg':{'enabled':true,'inner':{'depth':9}}}"),
              "ERR 40000005 cfg.inner.depth: must be an integer from 0 to 3");
    CHECK_STR(TJ(nested, "{'cfg':{'enabled':true,'inner':{'depth':'1'}}}"),
              "ERR 40000004 cfg.inner.depth: must be an integer");
    CHECK_STR(TJ(nested, "{'cfg':{'enabled':true,'ip':['a','b','c']}}"),
              "ERR 40000005 cfg.ip: must have 0 to 2 items");
    CHECK_STR(TJ(nested, "{'cfg':{'enabled':true,'ip':[1]}}"), "ERR 40000004 cfg.ip[0]: must be a string");
    CHECK_STR(TJ(nested, "{'cfg':[]}"), "ERR 40000004 cfg: must be a JSON object");
    CHECK_STR(TJ(nested, "{'cfg':{'enabled':true,'inner':5}}"),
              "ERR 40000004 cfg.inner: must be a JSON object");
    CHECK_STR(TQ(nested, "{'cfg':'x'}"),
              "ERR 40000004 cfg: must be a JSON object"); /* text cannot be an object */
}

TEST(nested_arrays_of_objects)
{
    CHECK_STR(TJ(nested, "{'rules':[{'name':'a'},{'name':'b','prio':1}]}"),
              "{'rules':[{'name':'a','prio':5},{'name':'b','prio':1}]}");
    CHECK_STR(TJ(nested, "{'rules':[{'name':'abcd'}]}"),
              "ERR 40000005 rules[0].name: must be 1 to 3 characters");
    CHECK_STR(TJ(nested, "{'rules':[{'name':'a'},{'nm':'b'}]}"),
              "ERR 40000006 rules[1].nm: is not a field of this object");
    CHECK_STR(TJ(nested, "{'rules':[{'name':'a'},{}]}"), "ERR 40000003 rules[1].name: is required");
    CHECK_STR(TJ(nested, "{'rules':[1]}"), "ERR 40000004 rules[0]: must be a JSON object");
    CHECK_STR(TJ(nested, "{'rules':[]}"), "ERR 40000005 rules: must not be empty");
    CHECK_STR(TJ(nested, "{'rules':[{'name':'a'},{'name':'b'},{'name':'c'}]}"),
              "ERR 40000005 rules: must have 1 to 2 items");
    CHECK_STR(TJ(nested, "{'rules':{'name':'a'}}"), "ERR 40000004 rules: must be an array of JSON objects");
}

TEST(long_unknown_names_are_shortened)
{
    char body[1024], want[512];
    char k300[301];
    memset(k300, 'k', 300);
    k300[300] = '\0';
    snprintf(body, sizeof body, "{'%s':1}", k300);
    snprintf(want, sizeof want, "ERR 40000006 %.96s...: is not a field of this endpoint", k300);
    CHECK_STR(TJ(basic, body), want);
    /* 200 two-byte characters: cut at a character boundary, 96 bytes */
    char e200[401] = "";
    for (int i = 0; i < 200; i++)
        strcat(e200, "\xC3\xA9");
    snprintf(body, sizeof body, "{'%s':1}", e200);
    snprintf(want, sizeof want, "ERR 40000006 %.96s...: is not a field of this endpoint", e200);
    CHECK_STR(TJ(basic, body), want);
    snprintf(body, sizeof body, "{'cfg':{'enabled':true,'%s':1}}", e200);
    const char *got = TJ(nested, body);
    CHECK(strncmp(got, "ERR 40000006 cfg.\xC3\xA9", 19) == 0);
    CHECK(strstr(got, "...: is not a field of this object") != NULL);
    char k96[97];
    memset(k96, 'k', 96);
    k96[96] = '\0';
    snprintf(body, sizeof body, "{'%s':1}", k96);
    snprintf(want, sizeof want, "ERR 40000006 %s: is not a field of this endpoint", k96); /* not cut */
    CHECK_STR(TJ(basic, body), want);
}

static const struct field_spec where[] = {
    F_STR("q", IN(IN_QUERY)),
    F_STR("bd", IN(IN_BODY)),
    F_INT("any"),
    F_STR("site_id", IN(IN_PATH), LEN(3, 3)),
    F_END,
};

TEST(unknown_fields)
{
    CHECK_STR(TQ(basic, "{'name':'a','bogus':'1'}"), "ERR 40000006 bogus: is not a field of this endpoint");
    CHECK_STR(TJ(basic, "{'name':'a','bogus':1}"), "ERR 40000006 bogus: is not a field of this endpoint");
    CHECK_STR(TQ(basic, "{'nmae':'a'}"),
              "ERR 40000006 nmae: is not a field of this endpoint"); /* before missing */
    CHECK_STR(TQ(where, "{'site_id':'abc'}"), "ERR 40000006 site_id: is not a field of this endpoint");
    CHECK_STR(run(basic, "{'name':'a'}", "{'zzz':1}", true, NULL, NULL),
              "ERR 40000006 zzz: is not a field of this endpoint");
}

TEST(query_body_and_path)
{
    CHECK_STR(run(where, "{'q':'1'}", "{'bd':'2'}", false, NULL, NULL), "{'bd':'2','q':'1'}");
    CHECK_STR(run(where, NULL, "{'q':'1'}", false, NULL, NULL),
              "ERR 40000005 q: must be sent in the query string");
    CHECK_STR(run(where, "{'bd':'1'}", NULL, false, NULL, NULL),
              "ERR 40000005 bd: must be sent in the request body");
    CHECK_STR(run(where, "{'any':'1'}", "{'any':'2'}", false, NULL, NULL),
              "ERR 40000007 any: is given both in the query and in the body");
    CHECK_STR(run(where, "{'any':'1'}", NULL, false, NULL, NULL), "{'any':1}");
    CHECK_STR(run(where, NULL, "{'any':'1'}", false, NULL, NULL), "{'any':1}");
    /* with a JSON body, the query stays text and the body is typed */
    CHECK_STR(run(where, "{'any':'1'}", "{}", true, NULL, NULL), "{'any':1}");
    CHECK_STR(run(where, NULL, "{'any':'1'}", true, NULL, NULL), "ERR 40000004 any: must be an integer");
    CHECK_STR(run(where, NULL, "{'any':1}", true, NULL, NULL), "{'any':1}");
    /* path parameters are checked like text */
    CHECK_STR(run(where, NULL, NULL, false, "{'site_id':'abc'}", NULL), "{'site_id':'abc'}");
    CHECK_STR(run(where, NULL, NULL, false, "{'site_id':'abcd'}", NULL),
              "ERR 40000005 site_id: must be 3 characters");
}

static const struct field_spec with_files[] = {
    F_FILE("cert", REQUIRED),
    F_FILE("key"),
    F_STR("name"),
    F_END,
};

TEST(file_fields)
{
    static const char *cert[] = {"cert", NULL}, *both[] = {"cert", "key", NULL}, *none[] = {NULL};
    static const char *other[] = {"cert", "other", NULL}, *text_as_file[] = {"cert", "name", NULL};
    CHECK_STR(run(with_files, NULL, "{'name':'n'}", false, NULL, cert),
              "{'name':'n'}"); /* files are not fields */
    CHECK_STR(run(with_files, NULL, NULL, false, NULL, both), "{}");
    CHECK_STR(run(with_files, NULL, NULL, false, NULL, none),
              "ERR 40000003 cert: is required (a file part of a multipart/form-data body)");
    CHECK_STR(run(with_files, NULL, NULL, false, NULL, NULL),
              "ERR 40000003 cert: is required (a file part of a multipart/form-data body)");
    CHECK_STR(run(with_files, NULL, NULL, false, NULL, other),
              "ERR 40000006 other: is not a file field of this endpoint");
    CHECK_STR(run(with_files, NULL, NULL, false, NULL, text_as_file),
              "ERR 40000006 name: is not a file field of this endpoint");
    CHECK_STR(run(with_files, NULL, "{'key':'text'}", false, NULL, cert),
              "ERR 40000004 key: must be a file part of a multipart/form-data body");
    CHECK_STR(run(with_files, NULL, "{'cert':'text'}", false, NULL, cert),
              "ERR 40000004 cert: must be a file part of a multipart/form-data body");
}

TEST(file_fields_elsewhere)
{
    static const char *cert[] = {"cert", NULL}, *twice[] = {"cert", "cert", NULL};
    /* a file field sent as text in the query is refused, not ignored */
    CHECK_STR(run(with_files, "{'key':'text'}", NULL, false, NULL, cert),
              "ERR 40000004 key: must be a file part of a multipart/form-data body");
    /* one file field, two parts: refused like a repeated text field */
    CHECK_STR(run(with_files, NULL, NULL, false, NULL, twice), "ERR 40000007 cert: must be given once");
}

TEST(first_failure_wins)
{
    CHECK_STR(TQ(basic, "{'n':'0','b':'x'}"), "ERR 40000003 name: is required"); /* spec order */
    CHECK_STR(TQ(basic, "{'name':'a','b':'x','n':'0'}"), "ERR 40000005 n: must be an integer from 1 to 100");
}

UNIT_MAIN(UNIT_CASE(text_types), UNIT_CASE(text_integers), UNIT_CASE(text_booleans_and_repeats),
          UNIT_CASE(text_arrays), UNIT_CASE(string_lengths_in_characters), UNIT_CASE(missing_and_defaults),
          UNIT_CASE(json_types), UNIT_CASE(loose_fields), UNIT_CASE(one_of), UNIT_CASE(items_and_comma_lists),
          UNIT_CASE(rules), UNIT_CASE(nested_objects), UNIT_CASE(nested_arrays_of_objects),
          UNIT_CASE(unknown_fields), UNIT_CASE(long_unknown_names_are_shortened),
          UNIT_CASE(query_body_and_path), UNIT_CASE(file_fields), UNIT_CASE(file_fields_elsewhere),
          UNIT_CASE(first_failure_wins))
