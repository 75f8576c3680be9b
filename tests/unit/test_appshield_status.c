/* test_appshield_status.c — AppShield status-code overwrite entries
 * (api/ap/appshield_status.c). */
#include "api/ap/appshield.h"

#include "unit.h"

static const char *code_rule(long long c)
{
    json_t *v = json_integer(c);
    const char *why = rule_overwritable_status(v, 0);
    json_decref(v);
    return why ? why : "ok";
}

TEST(overwritable_codes)
{
    CHECK_STR(code_rule(400), "ok");
    CHECK_STR(code_rule(417), "ok");
    CHECK_STR(code_rule(500), "ok");
    CHECK_STR(code_rule(505), "ok");
    CHECK_STR(code_rule(399), "must be a status code from 400 to 417 or from 500 to 505");
    CHECK_STR(code_rule(418), "must be a status code from 400 to 417 or from 500 to 505");
    CHECK_STR(code_rule(499), "must be a status code from 400 to 417 or from 500 to 505");
    CHECK_STR(code_rule(506), "must be a status code from 400 to 417 or from 500 to 505");
}

TEST(entries)
{
    char err[256] = "";
    int code = 0;
    json_t *e = status_entry_make(404, 200, "0", NULL, &code, err, sizeof err);
    CHECK(e != NULL);
    CHECK_INT(json_integer_value(json_object_get(e, "error_code")), 404);
    CHECK_STR(json_string_value(json_object_get(e, "error_page_type")), "0");
    CHECK_STR(json_string_value(json_object_get(e, "error_page_info")), "");
    json_decref(e);
    e = status_entry_make(502, 503, "2", "https://status.example.com/down.html", &code, err, sizeof err);
    CHECK(e != NULL);
    CHECK_STR(json_string_value(json_object_get(e, "error_page_info")),
              "https://status.example.com/down.html");
    json_decref(e);
    e = status_entry_make(404, 200, "1", "", &code, err, sizeof err); /* an empty URL is no URL */
    CHECK(e != NULL);
    json_decref(e);

    CHECK(!status_entry_make(404, 200, "2", NULL, &code, err, sizeof err));
    CHECK_STR(err, "error_page_info: is required when error_page_type is 2 (a custom page URL)");
    CHECK_INT(code, E_FIELD_MISSING);
    CHECK(!status_entry_make(404, 200, "2", "ftp://example.com/", &code, err, sizeof err));
    CHECK_STR(err, "error_page_info: must be an absolute http or https URL of at most 2048 characters");
    CHECK_INT(code, E_FIELD_INVALID);
    CHECK(!status_entry_make(404, 200, "2", "/relative.html", &code, err, sizeof err));
    CHECK(!status_entry_make(404, 200, "2", "https://user@example.com/", &code, err, sizeof err));
    CHECK(!status_entry_make(404, 200, "2", "https://example.com/a\"b", &code, err, sizeof err));
    CHECK_INT(code, E_FIELD_INVALID);
    CHECK(!status_entry_make(404, 200, "2", "https://example.com/{x}", &code, err, sizeof err));
    CHECK(!status_entry_make(404, 200, "2", "https://example.com/caf\xc3\xa9", &code, err, sizeof err));
    CHECK(!status_entry_make(404, 200, "2", "https://example.com/100%", &code, err, sizeof err));
    CHECK(!status_entry_make(404, 200, "2", "https://example.com/%zz", &code, err, sizeof err));
    e = status_entry_make(404, 200, "2", "https://example.com/caf%C3%A9?a=1&b='x';(y)*!~", &code, err,
                          sizeof err);
    CHECK(e != NULL);
    json_decref(e);
    CHECK(!status_entry_make(404, 200, "1", "https://example.com/", &code, err, sizeof err));
    CHECK_STR(err, "error_page_info: is taken only when error_page_type is 2 (a custom page URL)");
    CHECK_INT(code, E_RULE);
}

TEST(find)
{
    json_t *list = json_pack("[{s:i},{s:i}]", "error_code", 404, "error_code", 502);
    CHECK_INT(status_entry_find(list, 502), 1);
    CHECK_INT(status_entry_find(list, 404), 0);
    CHECK_INT(status_entry_find(list, 500), -1);
    json_decref(list);
}

UNIT_MAIN(UNIT_CASE(overwritable_codes), UNIT_CASE(entries), UNIT_CASE(find))
