/* bw_loop.c — see bw_loop.h. */
#include "dataplane/nginx/bw_loop.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dataplane/nginx/access_bw.h"
#include "dataplane/ingest_batch.h"
#include "dataplane/nginx/nginx_conf.h"
#include "dataplane/nginx/waf_tail.h"
#include "deploy/deployer.h"

enum { BATCH_LINES = 20000, KEEP_S = 3600 };

struct loop {
    struct waf_tail tail;
    bool open;
    const struct nginx_settings *st;
    struct bw_acc acc;
};

struct reading {
    struct store *s;
    struct bw_acc *acc;
    json_t *sites; /* server_name -> site id ("" for none), for this pass */
};

/* The id of the AP site whose domain is `name` ("" when none). */
static const char *site_of(struct reading *rd, const char *name)
{
    json_t *known = json_object_get(rd->sites, name);
    if (known)
        return json_string_value(known);
    char id[RES_ID_MAX + 1] = "";
    struct res_query q = {.kind = "ap.domain"};
    struct resource domain, site;
    if (rd->s->ops->res_get(rd->s, &q, NULL, name, &domain) == STORE_OK) {
        if (rd->s->ops->res_get_rid(rd->s, domain.parent_rid, &site) == STORE_OK) {
            snprintf(id, sizeof id, "%s", site.id);
            resource_clear(&site);
        }
        resource_clear(&domain);
    }
    json_object_set_new(rd->sites, name, json_string(id));
    return json_string_value(json_object_get(rd->sites, name));
}

static int take_line(const char *line, size_t len, void *arg)
{
    struct reading *rd = arg;
    struct access_line l;
    if (access_line_parse(line, len, &l) != 0)
        return 0;
    const char *site_id = site_of(rd, l.host);
    if (*site_id)
        bw_acc_add(rd->acc, site_id, &l);
    return 0;
}

static int pass(struct store *s, void *arg, char *msg, size_t msg_len)
{
    struct loop *l = arg;
    if (!l->open) {
        char path[4096], state[4096];
        snprintf(path, sizeof path, "%s/" NGINX_ACCESS_LOG, l->st->dir);
        snprintf(state, sizeof state, "%s/run/access-log.place", l->st->dir);
        waf_tail_init(&l->tail, path, state);
        l->open = true;
    }
    struct reading rd = {s, &l->acc, json_object()};
    long lines, stored = 0, dropped = 0;
    do {
        lines = waf_tail_read(&l->tail, BATCH_LINES, take_line, &rd);
        int64_t now = (int64_t)time(NULL);
        json_t *records = json_array();
        int rc = 0;
        if (bw_acc_take(&l->acc, "nginx", now - KEEP_S, records))
            rc = dp_ingest_records(s, records, now, "bandwidth", &stored, &dropped);
        json_decref(records);
        if (rc != 0) {
            bw_acc_retry(&l->acc);
            snprintf(msg, msg_len, "the bandwidth samples could not be stored; trying again");
            json_decref(rd.sites);
            return -1;
        }
        if (lines > 0 && waf_tail_commit(&l->tail) != 0)
            fprintf(stderr, "parapet: bandwidth: cannot save the place in the access log\n");
    } while (lines >= BATCH_LINES);
    json_decref(rd.sites);
    if (dropped)
        snprintf(msg, msg_len, "%ld bandwidth samples stored, %ld left out", stored, dropped);
    return 0;
}

static struct loop loop;
static struct deployer bandwidth_follower = {.name = "bandwidth", .pass = pass, .arg = &loop, .interval_s = 1};

int bw_loop_start(const struct nginx_settings *st, const struct store_config *store_cfg)
{
    loop.st = st;
    return deployer_start(&bandwidth_follower, store_cfg);
}

void bw_loop_stop(void)
{
    deployer_stop(&bandwidth_follower);
    if (loop.open)
        waf_tail_close(&loop.tail);
    loop.open = false;
    bw_acc_free(&loop.acc);
}
