/* test_nginx_access.c — dataplane/nginx/access_bw.h: nginx access-log lines
 * as raw and clean bandwidth of a site and minute. */
#include "dataplane/nginx/access_bw.h"

#include "unit.h"

TEST(lines)
{
    struct access_line l;
    const char *ok = "1764000061.123 shop.example 200 400 5000 127.0.0.2:8080";
    CHECK_INT(access_line_parse(ok, strlen(ok), &l), 0);
    CHECK_INT(l.time, 1764000061);
    CHECK_STR(l.host, "shop.example");
    CHECK_INT(l.in, 400);
    CHECK_INT(l.out, 5000);
    CHECK(l.clean);
    const char *blocked = "1764000062.000 shop.example 403 900 300 -";
    CHECK_INT(access_line_parse(blocked, strlen(blocked), &l), 0);
    CHECK(!l.clean);
    const char *bad[] = {"", "1764000061.1 shop.example 200 400 5000", "x shop.example 200 1 1 -",
                         "1764000061.1 shop.example 200 -4 1 -", "1764000061.1 shop.example 200 1 1 - extra",
                         "1764000061.1 shop.example 42 1 1 -"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK_INT(access_line_parse(bad[i], strlen(bad[i]), &l), -1);
}

static void add(struct bw_acc *a, const char *site, const char *text)
{
    struct access_line l;
    if (access_line_parse(text, strlen(text), &l) != 0)
        abort();
    bw_acc_add(a, site, &l);
}

TEST(sums_per_site_and_minute)
{
    struct bw_acc a = {0};
    add(&a, "s1", "1764000000.5 a.example 200 600 6000 127.0.0.2:80");
    add(&a, "s1", "1764000059.9 a.example 403 300 150 -");
    add(&a, "s1", "1764000060.0 a.example 200 60 60 127.0.0.2:80");
    add(&a, "s2", "1764000010.0 b.example 200 6 6 127.0.0.2:80");
    json_t *records = json_array();
    CHECK_INT(bw_acc_take(&a, "nginx", 0, records), 3);
    /* (600 + 300) * 8 / 60 = 120 raw in; only 600 clean: 80 */
    CHECK_STR(json_string_value(json_array_get(records, 0)),
              "{\"kind\":\"bandwidth\",\"site_id\":\"s1\",\"time\":1764000000,\"node\":\"nginx\",\"raw_in\":120,"
              "\"raw_out\":820,\"clean_in\":80,\"clean_out\":800}");
    CHECK_STR(json_string_value(json_array_get(records, 1)),
              "{\"kind\":\"bandwidth\",\"site_id\":\"s1\",\"time\":1764000060,\"node\":\"nginx\",\"raw_in\":8,"
              "\"raw_out\":8,\"clean_in\":8,\"clean_out\":8}");
    json_decref(records);
    /* nothing new: nothing taken; a later request resends its minute with the larger sums */
    records = json_array();
    CHECK_INT(bw_acc_take(&a, "nginx", 0, records), 0);
    add(&a, "s1", "1764000001.0 a.example 200 60 0 127.0.0.2:80");
    CHECK_INT(bw_acc_take(&a, "nginx", 0, records), 1);
    CHECK_STR(json_string_value(json_array_get(records, 0)),
              "{\"kind\":\"bandwidth\",\"site_id\":\"s1\",\"time\":1764000000,\"node\":\"nginx\",\"raw_in\":128,"
              "\"raw_out\":820,\"clean_in\":88,\"clean_out\":800}");
    json_decref(records);
    /* a failed store: everything is sent again; old minutes are forgotten */
    bw_acc_retry(&a);
    records = json_array();
    CHECK_INT(bw_acc_take(&a, "nginx", 1764000060, records), 3);
    CHECK_INT(a.n, 1);
    json_decref(records);
    bw_acc_free(&a);
}

UNIT_MAIN(UNIT_CASE(lines), UNIT_CASE(sums_per_site_and_minute))
