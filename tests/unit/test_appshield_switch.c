/* test_appshield_switch.c — the AppShield switch tree (api/ap/appshield_switch.c). */
#include "api/ap/appshield.h"

#include "unit.h"

static const char *const names[] = {APPSHIELD_SWITCH_NAMES};
enum { N_NAMES = sizeof names / sizeof names[0] };

/* The switch object at "p_wbl" or "p_wbl.spider" in a view. */
static json_t *node(json_t *tree, const char *policy, const char *sub)
{
    json_t *p = json_object_get(tree, policy);
    return sub ? json_object_get(p, sub) : p;
}

static long long enable_of(json_t *tree, const char *policy, const char *sub)
{
    json_t *n = node(tree, policy, sub);
    return n ? json_integer_value(json_object_get(n, "enable")) : -1;
}

TEST(default_tree_shape)
{
    json_t *states = appshield_switches_default();
    CHECK_INT(json_object_size(states), N_NAMES);
    json_t *tree = appshield_switches_view(states);
    CHECK_INT(json_object_size(tree), 5); /* the five policies of the document */
    const char *leaves[] = {"p_auth", "p_error_rewrite", "p_filt"};
    for (size_t i = 0; i < 3; i++) {
        json_t *n = node(tree, leaves[i], NULL);
        CHECK_INT(json_object_size(n), 2);
        CHECK_STR(json_string_value(json_object_get(n, "name")), leaves[i]);
    }
    CHECK_INT(json_object_size(node(tree, "p_malf", NULL)), 4);
    CHECK_INT(json_object_size(node(tree, "p_wbl", NULL)), 9);
    CHECK_STR(json_string_value(json_object_get(node(tree, "p_wbl", "ua_black_list"), "name")),
              "ua_black_list");
    CHECK_INT(enable_of(tree, "p_auth", NULL), 0);
    CHECK_INT(enable_of(tree, "p_filt", NULL), 1);
    CHECK_INT(enable_of(tree, "p_malf", "accept_invalid_http_request"), 0);
    CHECK_INT(enable_of(tree, "p_wbl", "spider"), 1);
    json_decref(tree);
    json_decref(states);
}

TEST(every_name_is_settable_and_shown)
{
    json_t *states = appshield_switches_default();
    for (size_t i = 0; i < N_NAMES; i++) {
        json_t *before = appshield_switches_view(states);
        char *b = json_dumps(before, JSON_SORT_KEYS);
        long long was = json_integer_value(json_object_get(states, names[i]));
        CHECK_INT(appshield_switch_set(states, names[i], !was), 0);
        json_t *after = appshield_switches_view(states);
        char *a = json_dumps(after, JSON_SORT_KEYS);
        CHECK(strcmp(a, b) != 0); /* the change shows in the tree */
        CHECK_INT(appshield_switch_set(states, names[i], (int)was), 0);
        free(a);
        free(b);
        json_decref(before);
        json_decref(after);
    }
    CHECK_INT(appshield_switch_set(states, "p_nope", 1), -1);
    CHECK_INT(appshield_switch_set(states, "enable", 1), -1);
    json_decref(states);
}

TEST(sub_switch_independent_of_policy)
{
    json_t *states = appshield_switches_default();
    CHECK_INT(appshield_switch_set(states, "p_wbl", 0), 0);
    CHECK_INT(appshield_switch_set(states, "api", 1), 0);
    json_t *tree = appshield_switches_view(states);
    CHECK_INT(enable_of(tree, "p_wbl", NULL), 0);
    CHECK_INT(enable_of(tree, "p_wbl", "api"), 1);
    CHECK_INT(enable_of(tree, "p_wbl", "spider"), 1);
    json_decref(tree);
    /* a stored document missing a (later added) switch shows its default */
    json_object_del(states, "monitor");
    tree = appshield_switches_view(states);
    CHECK_INT(enable_of(tree, "p_wbl", "monitor"), 1);
    json_decref(tree);
    json_decref(states);
}

UNIT_MAIN(UNIT_CASE(default_tree_shape), UNIT_CASE(every_name_is_settable_and_shown),
          UNIT_CASE(sub_switch_independent_of_policy))
