/* test_resources.c — the generic resource layer and the address-block index
 * of the SQLite store (store/resource.h): scoping, names, versions, delete
 * rules, paging, serial ids, overlap and containment, the catalogue. */
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include "blocks_check.h"
#include "store/select/select.h"
#include "store/sqlite/sqlite.h"
#include "db_count.h"
#include "unit.h"

static char dir[64] = "/tmp/parapet-res-XXXXXX";
static struct store *s;
static void setup(void);
static void teardown(void);

static const struct res_kind SITE = {"t.site", .name_scope = RES_NAME_IN_PARENT};
static const struct res_kind NET = {"t.net", .parent = "t.site", .name_scope = RES_NAME_IN_PARENT,
                                    .restricts_parent = true};
static const struct res_kind SETTING = {"t.setting", .parent = "t.site"};
static const struct res_kind TEMPLATE = {"t.template", .parent = "t.site", .serial_id = true};
static const struct res_kind DOMAIN = {"t.domain", .parent = "t.site", .name_scope = RES_NAME_GLOBAL};

static void setup(void)
{
    if (s)
        return;
    atexit(teardown);
    if (!mkdtemp(dir))
        abort();
    char path[128];
    snprintf(path, sizeof path, "%s/r.db", dir);
    s = sqlite_store_open(path);
    if (!s)
        abort();
    s->ops->begin(s, true);
    struct portal p = {.id = "p000000000000001", .name = "P"};
    struct customer a = {.id = "c00000000000000a", .portal_id = "p000000000000001", .name = "A"};
    struct customer b = {.id = "c00000000000000b", .portal_id = "p000000000000001", .name = "B"};
    if (s->ops->portal_create(s, &p) || s->ops->customer_create(s, &a) || s->ops->customer_create(s, &b) ||
        s->ops->commit(s))
        abort();
}

static void teardown(void)
{
    s->ops->close(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "  could not remove %s\n", dir);
}

static int create(const struct res_kind *k, const char *customer, int64_t parent, const char *name,
                  struct resource *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->customer_id, sizeof out->customer_id, "%s", customer);
    snprintf(out->name, sizeof out->name, "%s", name);
    out->parent_rid = parent;
    out->doc = json_pack("{s:s}", "name", name);
    int rc = s->ops->res_create(s, k, out);
    resource_clear(out);
    return rc;
}

static struct cidr block(const char *text)
{
    struct cidr c;
    if (cidr_parse(text, 0, &c) != 0)
        abort();
    return c;
}

TEST(create_get_scoped_to_customer_and_parent)
{
    setup();
    struct resource site, other, net, got;
    CHECK_INT(create(&SITE, "c00000000000000a", 0, "alpha", &site), STORE_OK);
    CHECK_INT(strlen(site.id), 16);
    CHECK_INT(site.version, 1);
    CHECK_INT(create(&SITE, "c00000000000000b", 0, "beta", &other), STORE_OK);
    CHECK_INT(create(&NET, "c00000000000000a", site.rid, "n1", &net), STORE_OK);

    struct res_query mine = {
        .kind = "t.site", .customer_id = "c00000000000000a", .parent_rid = RES_TOP_LEVEL};
    CHECK_INT(s->ops->res_get(s, &mine, site.id, NULL, &got), STORE_OK);
    CHECK_STR(json_string_value(json_object_get(got.doc, "name")), "alpha");
    resource_clear(&got);
    /* another customer's site: not found, exactly like an unknown id */
    CHECK_INT(s->ops->res_get(s, &mine, other.id, NULL, &got), STORE_NOT_FOUND);
    CHECK_INT(s->ops->res_get(s, &mine, "ffffffffffffffff", NULL, &got), STORE_NOT_FOUND);
    /* by name, and by portal */
    CHECK_INT(s->ops->res_get(s, &mine, NULL, "ALPHA", &got), STORE_OK); /* names compare without case */
    resource_clear(&got);
    struct res_query portal = {.kind = "t.site", .portal_id = "p000000000000001"};
    CHECK_INT(s->ops->res_get(s, &portal, other.id, NULL, &got), STORE_OK);
    resource_clear(&got);
    struct res_query wrong_portal = {.kind = "t.site", .portal_id = "p000000000000002"};
    CHECK_INT(s->ops->res_get(s, &wrong_portal, other.id, NULL, &got), STORE_NOT_FOUND);
    /* a child under the right parent only */
    struct res_query under_site = {
        .kind = "t.net", .customer_id = "c00000000000000a", .parent_rid = site.rid};
    struct res_query under_other = {
        .kind = "t.net", .customer_id = "c00000000000000a", .parent_rid = other.rid};
    CHECK_INT(s->ops->res_get(s, &under_site, net.id, NULL, &got), STORE_OK);
    resource_clear(&got);
    CHECK_INT(s->ops->res_get(s, &under_other, net.id, NULL, &got), STORE_NOT_FOUND);
    /* a parent of another customer, or of the wrong kind, is refused */
    struct resource bad;
    CHECK_INT(create(&NET, "c00000000000000b", site.rid, "n2", &bad), STORE_NOT_FOUND);
    CHECK_INT(create(&NET, "c00000000000000a", net.rid, "n3", &bad), STORE_NOT_FOUND);
}

/* res_get without the document gives the same row and no doc; res_parent
 * the parent's key (0 at the top level; not found once gone). */
TEST(rows_without_documents_and_parents)
{
    setup();
    struct resource site, net, got, full;
    CHECK_INT(create(&SITE, "c00000000000000a", 0, "gamma", &site), STORE_OK);
    CHECK_INT(create(&NET, "c00000000000000a", site.rid, "g1", &net), STORE_OK);
    struct res_query q = {.kind = "t.net", .customer_id = "c00000000000000a", .parent_rid = site.rid};
    CHECK_INT(s->ops->res_get(s, &q, net.id, NULL, &full), STORE_OK);
    q.without_doc = true;
    CHECK_INT(s->ops->res_get(s, &q, net.id, NULL, &got), STORE_OK);
    CHECK(got.doc == NULL);
    CHECK(got.rid == full.rid && got.parent_rid == site.rid && got.version == full.version);
    CHECK_STR(got.id, net.id);
    CHECK_STR(got.name, "g1");
    CHECK_STR(got.customer_id, "c00000000000000a");
    resource_clear(&full);
    /* a row without its document is not written back (it would blank the stored one) */
    CHECK_INT(s->ops->res_update(s, &got), STORE_ERROR);
    q.without_doc = false;
    CHECK_INT(s->ops->res_get(s, &q, net.id, NULL, &full), STORE_OK);
    CHECK_STR(json_string_value(json_object_get(full.doc, "name")), "g1");
    resource_clear(&full);
    /* the filters still apply */
    q.customer_id = "c00000000000000b";
    CHECK_INT(s->ops->res_get(s, &q, net.id, NULL, &got), STORE_NOT_FOUND);
    int64_t parent = -1;
    CHECK_INT(s->ops->res_parent(s, net.rid, &parent), STORE_OK);
    CHECK(parent == site.rid);
    CHECK_INT(s->ops->res_parent(s, site.rid, &parent), STORE_OK);
    CHECK(parent == 0);
    CHECK_INT(s->ops->res_delete(s, net.rid, NULL), STORE_OK);
    CHECK_INT(s->ops->res_parent(s, net.rid, &parent), STORE_NOT_FOUND);
}

TEST(names_unique_in_their_scope)
{
    setup();
    struct resource a, b, c, d;
    CHECK_INT(create(&SITE, "c00000000000000a", 0, "dup", &a), STORE_OK);
    CHECK_INT(create(&SITE, "c00000000000000a", 0, "Dup", &b), STORE_CONFLICT);
    CHECK_INT(create(&SITE, "c00000000000000b", 0, "dup", &b), STORE_OK); /* per customer */
    CHECK_INT(create(&NET, "c00000000000000a", a.rid, "n", &c), STORE_OK);
    CHECK_INT(create(&NET, "c00000000000000b", b.rid, "n", &d), STORE_OK); /* per parent */
    CHECK_INT(create(&DOMAIN, "c00000000000000a", a.rid, "www.example.com", &c), STORE_OK);
    CHECK_INT(create(&DOMAIN, "c00000000000000b", b.rid, "www.example.com", &d), STORE_CONFLICT); /* global */
    CHECK_INT(create(&SETTING, "c00000000000000a", a.rid, "x", &c), STORE_OK);
    CHECK_INT(create(&SETTING, "c00000000000000a", a.rid, "x", &d), STORE_OK); /* no unique name */
}

TEST(update_checks_version)
{
    setup();
    struct resource site, got, stale;
    CHECK_INT(create(&SITE, "c00000000000000a", 0, "versioned", &site), STORE_OK);
    struct res_query q = {.kind = "t.site", .customer_id = "c00000000000000a"};
    CHECK_INT(s->ops->res_get(s, &q, site.id, NULL, &got), STORE_OK);
    CHECK_INT(s->ops->res_get(s, &q, site.id, NULL, &stale), STORE_OK);
    json_object_set_new(got.doc, "desc", json_string("new"));
    CHECK_INT(s->ops->res_update(s, &got), STORE_OK);
    CHECK_INT(got.version, 2);
    CHECK_INT(s->ops->res_update(s, &stale), STORE_CONFLICT); /* read before the first update */
    resource_clear(&got);
    resource_clear(&stale);
    CHECK_INT(s->ops->res_get(s, &q, site.id, NULL, &got), STORE_OK);
    CHECK_STR(json_string_value(json_object_get(got.doc, "desc")), "new");
    resource_clear(&got);
    /* res_version: the stored version, and not found once the resource is gone */
    int64_t version = 0;
    CHECK_INT(s->ops->res_version(s, site.rid, &version), STORE_OK);
    CHECK_INT(version, 2);
    CHECK_INT(s->ops->res_delete(s, site.rid, NULL), STORE_OK);
    CHECK_INT(s->ops->res_version(s, site.rid, &version), STORE_NOT_FOUND);
}

TEST(delete_restricts_or_cascades)
{
    setup();
    struct resource site, net, setting, got;
    CHECK_INT(create(&SITE, "c00000000000000a", 0, "deleting", &site), STORE_OK);
    CHECK_INT(create(&NET, "c00000000000000a", site.rid, "n", &net), STORE_OK);
    CHECK_INT(create(&SETTING, "c00000000000000a", site.rid, "", &setting), STORE_OK);
    struct cidr b = block("198.51.100.0/24");
    CHECK_INT(s->ops->blocks_set(s, site.rid, &b, 1), STORE_OK);
    json_t *blocker = NULL;
    CHECK_INT(s->ops->res_delete(s, site.rid, &blocker), STORE_CONFLICT);
    CHECK_STR(json_string_value(json_object_get(blocker, "kind")), "t.net");
    CHECK_STR(json_string_value(json_object_get(blocker, "id")), net.id);
    json_decref(blocker);
    CHECK_INT(s->ops->res_delete(s, net.rid, NULL), STORE_OK);
    CHECK_INT(s->ops->res_delete(s, site.rid, NULL), STORE_OK); /* the setting goes with it */
    struct res_query q = {.kind = "t.setting"};
    CHECK_INT(s->ops->res_get(s, &q, setting.id, NULL, &got), STORE_NOT_FOUND);
    struct block_filter all = {0};
    struct block_hit hits[4];
    size_t n = 9;
    CHECK_INT(s->ops->blocks_overlapping(s, &b, &all, hits, 4, &n), STORE_OK);
    CHECK_INT(n, 0); /* the site's blocks are gone too */
    CHECK_INT(s->ops->res_delete(s, site.rid, NULL), STORE_NOT_FOUND);
}

TEST(list_pages_in_creation_order)
{
    setup();
    struct resource site, t;
    CHECK_INT(create(&SITE, "c00000000000000a", 0, "listing", &site), STORE_OK);
    char first[RES_ID_MAX + 1] = "";
    for (int i = 0; i < 5; i++) {
        CHECK_INT(create(&TEMPLATE, "c00000000000000a", site.rid, "", &t), STORE_OK);
        if (i == 0)
            snprintf(first, sizeof first, "%s", t.id);
    }
    CHECK_INT(atol(t.id), atol(first) + 4); /* serial ids */
    struct res_query q = {.kind = "t.template", .parent_rid = site.rid, .offset = 3, .limit = 10};
    json_t *rows;
    long total = -1;
    CHECK_INT(s->ops->res_list(s, &q, &rows, &total), STORE_OK);
    CHECK_INT(total, 5);
    CHECK_INT(json_array_size(rows), 2);
    CHECK_STR(json_string_value(json_object_get(json_array_get(rows, 1), "id")), t.id);
    json_decref(rows);
    /* a deleted serial is never handed out again */
    CHECK_INT(s->ops->res_delete(s, t.rid, NULL), STORE_OK);
    struct resource again;
    CHECK_INT(create(&TEMPLATE, "c00000000000000a", site.rid, "", &again), STORE_OK);
    CHECK_INT(atol(again.id), atol(t.id) + 1);
    /* lists per customer and per portal */
    struct res_query by_portal = {.kind = "t.site", .portal_id = "p000000000000001", .limit = 100};
    struct res_query by_customer = {.kind = "t.site", .customer_id = "c00000000000000b", .limit = 100};
    long portal_total, customer_total;
    CHECK_INT(s->ops->res_list(s, &by_portal, &rows, &portal_total), STORE_OK);
    json_decref(rows);
    CHECK_INT(s->ops->res_list(s, &by_customer, &rows, &customer_total), STORE_OK);
    json_decref(rows);
    CHECK(portal_total > customer_total && customer_total > 0);
}

/* One integer member of every child's document, in creation order; -1
 * where the document has none or holds something else. */
TEST(child_ints_read_one_member)
{
    setup();
    struct resource site;
    CHECK_INT(create(&SITE, "c00000000000000a", 0, "members", &site), STORE_OK);
    const char *docs[] = {"{\"slot\": 7}", "{\"slot\": 0}", "{}", "{\"slot\": \"3\"}", "{\"slot\": 2}"};
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        struct resource t = {.parent_rid = site.rid};
        snprintf(t.customer_id, sizeof t.customer_id, "c00000000000000a");
        t.doc = json_loads(docs[i], 0, NULL);
        CHECK_INT(s->ops->res_create(s, &SETTING, &t), STORE_OK);
        resource_clear(&t);
    }
    int64_t got[8];
    size_t n = 99;
    CHECK_INT(s->ops->res_child_ints(s, site.rid, "t.setting", "slot", got, 8, &n), STORE_OK);
    CHECK_INT(n, 5);
    int64_t want[] = {7, 0, -1, -1, 2};
    for (size_t i = 0; i < 5 && i < n; i++)
        CHECK_INT(got[i], want[i]);
    CHECK_INT(s->ops->res_child_ints(s, site.rid, "t.setting", "slot", got, 2, &n), STORE_OK);
    CHECK_INT(n, 2); /* at most max */
    CHECK_INT(s->ops->res_child_ints(s, site.rid, "t.template", "slot", got, 8, &n), STORE_OK);
    CHECK_INT(n, 0);
}

TEST(blocks_overlap_and_containment)
{
    setup();
    struct resource a, b, net;
    CHECK_INT(create(&SITE, "c00000000000000a", 0, "blocks_a", &a), STORE_OK);
    CHECK_INT(create(&SITE, "c00000000000000b", 0, "blocks_b", &b), STORE_OK);
    struct cidr site_blocks[] = {block("203.0.113.0/24"), block("2001:db8:100::/48")};
    CHECK_INT(s->ops->blocks_set(s, a.rid, site_blocks, 2), STORE_OK);
    struct cidr *got;
    size_t n;
    CHECK_INT(s->ops->blocks_get(s, a.rid, &got, &n), STORE_OK);
    CHECK_INT(n, 2);
    CHECK(n == 2 && cidr_equal(&got[1], &site_blocks[1]));
    free(got);

    struct block_filter others = {.top_level = true, .not_customer_id = "c00000000000000b"};
    struct block_hit hits[4];
    struct cidr probe = block("203.0.113.128/25");
    CHECK_INT(s->ops->blocks_overlapping(s, &probe, &others, hits, 4, &n), STORE_OK);
    CHECK_INT(n, 1);
    CHECK_STR(hits[0].customer_id, "c00000000000000a");
    CHECK_STR(hits[0].id, a.id);
    probe = block("203.0.112.0/22"); /* a wider block overlaps too */
    CHECK_INT(s->ops->blocks_overlapping(s, &probe, &others, hits, 4, &n), STORE_OK);
    CHECK_INT(n, 1);
    probe = block("203.0.114.0/24");
    CHECK_INT(s->ops->blocks_overlapping(s, &probe, &others, hits, 4, &n), STORE_OK);
    CHECK_INT(n, 0);
    probe = block("::ffff:203.0.113.0/120"); /* the families stay apart */
    CHECK_INT(s->ops->blocks_overlapping(s, &probe, &others, hits, 4, &n), STORE_OK);
    CHECK_INT(n, 0);
    struct block_filter same = {.top_level = true, .not_customer_id = "c00000000000000a"};
    probe = block("203.0.113.7/32");
    CHECK_INT(s->ops->blocks_overlapping(s, &probe, &same, hits, 4, &n), STORE_OK);
    CHECK_INT(n, 0);

    /* a child block inside the site's is covered; shrinking the site uncovers it */
    CHECK_INT(create(&NET, "c00000000000000a", a.rid, "inner", &net), STORE_OK);
    struct cidr inner = block("203.0.113.0/26");
    CHECK_INT(s->ops->blocks_set(s, net.rid, &inner, 1), STORE_OK);
    struct block_hit h;
    CHECK_INT(s->ops->blocks_uncovered(s, a.rid, &h), STORE_NOT_FOUND);
    struct cidr smaller = block("203.0.113.128/25");
    CHECK_INT(s->ops->blocks_set(s, a.rid, &smaller, 1), STORE_OK);
    CHECK_INT(s->ops->blocks_uncovered(s, a.rid, &h), STORE_OK);
    CHECK_STR(h.id, net.id);
    CHECK(cidr_equal(&h.block, &inner));
    /* siblings: overlap among children of one parent */
    struct block_filter siblings = {.parent_rid = a.rid, .kind = "t.net"};
    probe = block("203.0.113.32/27");
    CHECK_INT(s->ops->blocks_overlapping(s, &probe, &siblings, hits, 4, &n), STORE_OK);
    CHECK_INT(n, 1);
    siblings.except_rid = net.rid;
    CHECK_INT(s->ops->blocks_overlapping(s, &probe, &siblings, hits, 4, &n), STORE_OK);
    CHECK_INT(n, 0);
}

/* The index's overlap answers against a brute force (blocks_check.h). */
TEST(blocks_overlap_as_brute_force)
{
    setup();
    int64_t rids[BLOCKS_CHECK_SITES];
    for (int i = 0; i < BLOCKS_CHECK_SITES; i++) {
        struct resource r;
        char name[32];
        snprintf(name, sizeof name, "rand_%d", i);
        CHECK_INT(create(&SITE, i % 2 ? "c00000000000000a" : "c00000000000000b", 0, name, &r), STORE_OK);
        rids[i] = r.rid;
    }
    blocks_check_brute_force(s, rids);
}

TEST(catalogue_values)
{
    setup();
    json_t *v = json_pack("{s:s}", "SE", "Sweden"), *got = NULL;
    CHECK_INT(s->ops->catalogue_set(s, "countries_test", v, "operator"), STORE_OK);
    CHECK_INT(s->ops->catalogue_get(s, "countries_test", &got), STORE_OK);
    CHECK(json_equal(v, got));
    json_decref(got);
    json_decref(v);
    CHECK_INT(s->ops->catalogue_get(s, "absent", &got), STORE_NOT_FOUND);
}

/* What a query counts in the store's file, read on a connection of its own. */
static long stored_count(const char *sql)
{
    char path[128];
    snprintf(path, sizeof path, "%s/r.db", dir);
    return db_count(path, sql);
}

TEST(dataplane_states_keep_last_good_and_go_with_the_site)
{
    setup();
    struct resource site;
    CHECK_INT(create(&SITE, "c00000000000000a", 0, "deployed-site", &site), STORE_OK);
    CHECK_INT(s->ops->dataplane_state_set(s, "bird", site.rid, "deployed", "", "d1", "frag-1"), STORE_OK);
    CHECK_INT(s->ops->dataplane_state_set(s, "bird", site.rid, "failed", "bird -p: syntax error", "d2", NULL),
              STORE_OK);
    CHECK_INT(s->ops->dataplane_state_set(s, "nginx", site.rid, "pending", NULL, NULL, NULL), STORE_OK);
    json_t *rows = NULL;
    CHECK_INT(s->ops->dataplane_states(s, "bird", site.rid, &rows), STORE_OK);
    CHECK_INT(json_array_size(rows), 1);
    json_t *row = json_array_get(rows, 0);
    CHECK_STR(json_string_value(json_object_get(row, "state")), "failed");
    CHECK_STR(json_string_value(json_object_get(row, "reason")), "bird -p: syntax error");
    CHECK_STR(json_string_value(json_object_get(row, "digest")), "d2");
    CHECK_STR(json_string_value(json_object_get(row, "deployed")), "frag-1"); /* the last good one stays */
    CHECK_STR(json_string_value(json_object_get(row, "site_id")), site.id);
    CHECK_STR(json_string_value(json_object_get(row, "site_kind")), "t.site");
    json_decref(rows);
    CHECK_INT(s->ops->dataplane_states(s, NULL, site.rid, &rows), STORE_OK);
    CHECK_INT(json_array_size(rows), 2);
    json_decref(rows);
    CHECK_INT(s->ops->res_delete(s, site.rid, NULL), STORE_OK);
    CHECK_INT(s->ops->dataplane_states(s, NULL, site.rid, &rows), STORE_OK);
    CHECK_INT(json_array_size(rows), 0);
    json_decref(rows);
    /* a pass that rendered the site before its delete stores nothing after it */
    CHECK_INT(s->ops->dataplane_state_set(s, "bird", site.rid, "deployed", "", "d3", "frag-3"), STORE_OK);
    CHECK_INT(s->ops->dataplane_states(s, NULL, site.rid, &rows), STORE_OK);
    CHECK_INT(json_array_size(rows), 0);
    json_decref(rows);
    CHECK_INT(stored_count("SELECT count(*) FROM dataplane_state"), 0); /* not only hidden by a join */
}

UNIT_MAIN(UNIT_CASE(create_get_scoped_to_customer_and_parent), UNIT_CASE(rows_without_documents_and_parents), UNIT_CASE(names_unique_in_their_scope), UNIT_CASE(blocks_overlap_as_brute_force),
          UNIT_CASE(update_checks_version), UNIT_CASE(delete_restricts_or_cascades),
          UNIT_CASE(list_pages_in_creation_order), UNIT_CASE(child_ints_read_one_member),
          UNIT_CASE(blocks_overlap_and_containment),
          UNIT_CASE(catalogue_values),
          UNIT_CASE(dataplane_states_keep_last_good_and_go_with_the_site))
