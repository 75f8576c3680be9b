/* waf_loop.c — see waf_loop.h. */
#include "dataplane/nginx/waf_loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dataplane/ingest_batch.h"
#include "dataplane/nginx/nginx_conf.h"
#include "dataplane/nginx/waf_audit.h"
#include "dataplane/nginx/waf_tail.h"
#include "deploy/deployer.h"

enum { BATCH_LINES = 2000 };

struct loop {
    struct waf_tail tail;
    bool open;
    const struct nginx_settings *st;
};

struct batch {
    json_t *records; /* NDJSON lines, as strings */
    int64_t now;
};

static int take_line(const char *line, size_t len, void *arg)
{
    struct batch *b = arg;
    json_t *rec = NULL;
    if (waf_audit_record(line, len, b->now, &rec) == 1) {
        char *text = json_dumps(rec, JSON_COMPACT);
        json_array_append_new(b->records, json_string(text));
        free(text);
        json_decref(rec);
    }
    return 0;
}

static int pass(struct store *s, void *arg, char *msg, size_t msg_len)
{
    struct loop *l = arg;
    if (!l->open) {
        char path[4096], state[4096];
        snprintf(path, sizeof path, "%s/" NGINX_AUDIT_LOG, l->st->dir);
        snprintf(state, sizeof state, "%s/run/audit-log.place", l->st->dir);
        waf_tail_init(&l->tail, path, state);
        l->open = true;
    }
    long stored = 0, dropped = 0, lines;
    do {
        struct batch b = {json_array(), (int64_t)time(NULL)};
        lines = waf_tail_read(&l->tail, BATCH_LINES, take_line, &b);
        int rc = lines > 0 ? dp_ingest_records(s, b.records, b.now, "waf log", &stored, &dropped) : 0;
        json_decref(b.records);
        if (rc != 0) { /* read again from the saved place next time */
            waf_tail_close(&l->tail);
            l->open = false;
            snprintf(msg, msg_len, "the WAF log entries could not be stored; trying again");
            return -1;
        }
        if (lines > 0 && waf_tail_commit(&l->tail) != 0)
            fprintf(stderr, "parapet: waf log: cannot save the place in the audit log\n");
    } while (lines >= BATCH_LINES);
    if (stored || dropped)
        snprintf(msg, msg_len, "%ld WAF log entries stored, %ld left out", stored, dropped);
    return 0;
}

static struct loop loop;
static struct deployer waf_log_follower = {.name = "waf log", .pass = pass, .arg = &loop, .interval_s = 1};

int waf_loop_start(const struct nginx_settings *st, const struct store_config *store_cfg)
{
    loop.st = st;
    return deployer_start(&waf_log_follower, store_cfg);
}

void waf_loop_stop(void)
{
    deployer_stop(&waf_log_follower);
    if (loop.open)
        waf_tail_close(&loop.tail);
    loop.open = false;
}
