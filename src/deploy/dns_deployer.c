/* dns_deployer.c — one deploy pass (see dns_deployer.h). */
#include "deploy/dns_deployer.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deploy/exec.h"
#include "deploy/files.h"

/* What this pass does with one zone of the snapshot. */
struct zone_plan {
    json_t *zone; /* borrowed: {id, generation, state, spec, deployed} */
    json_t *use;  /* the spec to serve: the current one, the last served one, or NULL */
    bool pending; /* its state changes after this pass */
    bool refused; /* pending, and its current spec cannot be served: reason says why */
    bool waiting; /* pending, and not servable until the customer adds something: reason says what */
    char reason[DNS_REASON_MAX + 1];
};

struct pass {
    struct store *store;
    const struct dns_deploy_config *cfg;
    struct dns_deploy_result *res;
    struct zone_plan *plans;
    size_t n;
    char path_live[4096], path_new[4096], path_check[4096], path_main[4096], path_zones[4096];
};

static const char *spec_name(json_t *spec)
{
    return json_string_value(json_object_get(spec, "name"));
}

static void refuse(struct zone_plan *p, const char *reason)
{
    p->refused = true;
    snprintf(p->reason, sizeof p->reason, "%s", reason);
    json_t *deployed = json_object_get(p->zone, "deployed");
    p->use = json_is_object(deployed) ? deployed : NULL; /* keep serving what was served */
}

static int fail(struct pass *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct pass *ps, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->res->error, sizeof ps->res->error, fmt, ap);
    va_end(ap);
    return -1;
}

/* knotc's complaint, fit for a client: the first error line, without file
 * paths (the server's business) and without any secret value it quotes. */
static void client_reason(const char *out, char *reason, size_t size)
{
    const char *line = strstr(out, "error:");
    line = line ? line : out;
    char buf[DNS_REASON_MAX + 1];
    snprintf(buf, sizeof buf, "%.*s", (int)strcspn(line, "\n"), line);
    char *file = strstr(buf, "file '");
    char *end = file ? strstr(file + 6, "', ") : NULL;
    if (end)
        memmove(file, end + 3, strlen(end + 3) + 1);
    char *secret = strstr(buf, "item 'secret', value '");
    if (secret) {
        char *v = secret + strlen("item 'secret', value '");
        char *close = strchr(v, '\'');
        if (close)
            memmove(v + 3, close, strlen(close) + 1), memcpy(v, "...", 3);
    }
    snprintf(reason, size, "Knot DNS refused the zone configuration: %.400s", buf);
}

/* Renders the specs chosen so far; a spec that cannot be rendered (a TSIG
 * key clash) is refused and the rendering retried without it. */
static char *render(struct pass *ps)
{
    for (;;) {
        json_t *specs = json_array();
        size_t *owner = calloc(ps->n + 1, sizeof *owner);
        for (size_t i = 0; i < ps->n; i++)
            if (ps->plans[i].use) {
                owner[json_array_size(specs)] = i;
                json_array_append(specs, ps->plans[i].use);
            }
        size_t bad = 0;
        char why[256];
        char *text = knot_render_zones(specs, &bad, why, sizeof why);
        json_decref(specs);
        size_t culprit = owner[bad];
        free(owner);
        if (text)
            return text;
        struct zone_plan *p = &ps->plans[culprit];
        if (!p->pending || p->refused) { /* a served spec clashes: leave everything pending */
            fail(ps, "cannot render the zones: %s", why);
            return NULL;
        }
        refuse(p, why);
    }
}

/* Writes `text` as the candidate and asks knotc whether Knot accepts it.
 * Without knotc there is nothing to ask: the API's own checks stand. */
static int check(struct pass *ps, const char *text, char *out, size_t size)
{
    out[0] = '\0';
    if (files_replace(ps->path_new, text) != 0)
        return fail(ps, "cannot write %.400s", ps->path_new);
    if (!ps->cfg->knotc)
        return 0;
    const char *argv[] = {ps->cfg->knotc, "-c", ps->path_check, "conf-check", NULL};
    return exec_capture(argv, out, size) == 0 ? 0 : 1;
}

/* A candidate Knot refused: find the pending zones that Knot refuses on
 * their own, refuse them, and try again without them. Returns the text to
 * install, or NULL (ps->res->error says why). */
static char *isolate(struct pass *ps)
{
    char out[4096];
    for (size_t i = 0; i < ps->n; i++) {
        struct zone_plan *p = &ps->plans[i];
        if (!p->pending || p->refused || !p->use)
            continue;
        json_t *alone = json_pack("[O]", p->use);
        size_t bad;
        char why[256];
        char *text = knot_render_zones(alone, &bad, why, sizeof why);
        json_decref(alone);
        int rc = text ? check(ps, text, out, sizeof out) : -1;
        free(text);
        if (rc < 0)
            return NULL;
        if (rc > 0) {
            char reason[DNS_REASON_MAX + 1];
            client_reason(out, reason, sizeof reason);
            refuse(p, reason);
        }
    }
    char *text = render(ps);
    if (!text)
        return NULL;
    int rc = check(ps, text, out, sizeof out);
    if (rc != 0) {
        if (rc > 0) { /* each zone passes alone, together they do not */
            char reason[DNS_REASON_MAX + 1];
            client_reason(out, reason, sizeof reason);
            fail(ps, "%.500s", reason);
        }
        free(text);
        return NULL;
    }
    return text;
}

static bool served(struct pass *ps, const char *zone)
{
    for (size_t i = 0; i < ps->n; i++)
        if (ps->plans[i].use && strcmp(spec_name(ps->plans[i].use), zone) == 0)
            return true;
    return false;
}

/* A minimal zone file for every served standard zone that has none; the
 * files of zones no longer served are removed. */
static void sync_zone_files(struct pass *ps)
{
    char path[4096];
    for (size_t i = 0; i < ps->n; i++) {
        json_t *use = ps->plans[i].use;
        if (!use || json_is_true(json_object_get(use, "zone_transfer")))
            continue;
        snprintf(path, sizeof path, "%.3800s/%.253s.zone", ps->path_zones, spec_name(use));
        if (!files_exist(path)) {
            char *text = knot_render_zone_file(&ps->cfg->knot, spec_name(use));
            if (files_create(path, text) != 0)
                fprintf(stderr, "parapet: dns deploy: cannot write %s\n", path);
            free(text);
        }
    }
    DIR *d = opendir(ps->path_zones);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len <= 5 || strcmp(e->d_name + len - 5, ".zone") != 0)
            continue;
        char zone[512];
        snprintf(zone, sizeof zone, "%.*s", (int)(len - 5), e->d_name);
        if (!served(ps, zone)) {
            snprintf(path, sizeof path, "%.3800s/%.255s", ps->path_zones, e->d_name);
            unlink(path);
        }
    }
    if (d)
        closedir(d);
}

static int install(struct pass *ps, const char *text)
{
    if (files_replace(ps->path_live, text) != 0)
        return fail(ps, "cannot write %.400s", ps->path_live);
    unlink(ps->path_new);
    sync_zone_files(ps);
    ps->res->installed = true;
    if (ps->cfg->reload && ps->cfg->knotc) {
        char out[1024];
        /* -t: knotc waits 60 s by default for a knotd that accepts but does
         * not answer (one shutting down), and `serve` stops only after
         * this pass; the configuration is installed either way and the
         * next pass reloads again */
        const char *argv[] = {ps->cfg->knotc, "-t", "10", "-c", ps->path_main, "reload", NULL};
        if (exec_capture(argv, out, sizeof out) != 0)
            return fail(ps, "knotc reload failed: %.400s", out);
    }
    return 0;
}

/* Records the outcome of every pending zone in one transaction; a zone
 * changed meanwhile keeps its newer pending state (the store compares
 * generations). With `refused_only`, successes wait for a later pass. */
static int mark(struct pass *ps, bool refused_only)
{
    struct store *s = ps->store;
    if (s->ops->begin(s, true) != STORE_OK)
        return fail(ps, "%s", "the store is not available");
    int rc = STORE_OK;
    for (size_t i = 0; i < ps->n && rc == STORE_OK; i++) {
        struct zone_plan *p = &ps->plans[i];
        if (!p->pending || (refused_only && !p->refused && !p->waiting))
            continue;
        int64_t id = json_integer_value(json_object_get(p->zone, "id"));
        int64_t gen = json_integer_value(json_object_get(p->zone, "generation"));
        if (p->waiting) {
            rc = s->ops->dns_deploy_mark(s, id, gen, DNS_STATE_PENDING, p->reason, NULL);
        } else if (p->refused) {
            rc = s->ops->dns_deploy_mark(s, id, gen, DNS_STATE_FAILED, p->reason, NULL);
            ps->res->failed++;
        } else {
            char *spec = json_dumps(p->use, JSON_COMPACT | JSON_SORT_KEYS);
            rc = s->ops->dns_deploy_mark(s, id, gen, DNS_STATE_DEPLOYED, "", spec);
            free(spec);
            ps->res->deployed++;
        }
    }
    if (rc != STORE_OK || s->ops->commit(s) != STORE_OK) {
        s->ops->rollback(s);
        return fail(ps, "%s", "the deploy states could not be saved");
    }
    return 0;
}

/* Chooses what to serve for each zone. */
static bool plan(struct pass *ps, json_t *snapshot)
{
    bool any_pending = false;
    ps->n = json_array_size(snapshot);
    ps->plans = calloc(ps->n + 1, sizeof *ps->plans);
    for (size_t i = 0; i < ps->n; i++) {
        struct zone_plan *p = &ps->plans[i];
        p->zone = json_array_get(snapshot, i);
        const char *state = json_string_value(json_object_get(p->zone, "state"));
        json_t *spec = json_object_get(p->zone, "spec");
        p->pending = strcmp(state, DNS_STATE_PENDING) == 0;
        p->use = spec;
        if (strcmp(state, DNS_STATE_FAILED) == 0)
            refuse(p, ""); /* failed earlier: serve what was served, until it changes */
        else if (p->pending && json_is_true(json_object_get(spec, "zone_transfer")) &&
                 json_array_size(json_object_get(spec, "masters")) == 0) {
            /* nothing to transfer from: not served until a master server is added */
            p->waiting = true;
            p->use = NULL;
            snprintf(p->reason, sizeof p->reason,
                     "waiting for a master server: a zone transfer zone needs one");
            const char *said = json_string_value(json_object_get(p->zone, "reason"));
            if (said && strcmp(said, p->reason) == 0)
                p->pending = p->waiting = false; /* already marked so: nothing to do */
        }
        any_pending |= p->pending;
    }
    return any_pending;
}

static int snapshot(struct pass *ps, json_t **out)
{
    struct store *s = ps->store;
    if (s->ops->begin(s, false) != STORE_OK)
        return fail(ps, "%s", "the store is not available");
    int rc = s->ops->dns_deploy_snapshot(s, out);
    s->ops->commit(s);
    return rc == STORE_OK ? 0 : fail(ps, "%s", "the zones could not be read");
}

static int prepare_dir(struct pass *ps)
{
    const struct knot_settings *k = &ps->cfg->knot;
    snprintf(ps->path_live, sizeof ps->path_live, "%s/zones.conf", k->dir);
    snprintf(ps->path_new, sizeof ps->path_new, "%s/zones.conf.new", k->dir);
    snprintf(ps->path_check, sizeof ps->path_check, "%s/check.conf", k->dir);
    snprintf(ps->path_main, sizeof ps->path_main, "%s/knot.conf", k->dir);
    snprintf(ps->path_zones, sizeof ps->path_zones, "%s/zones", k->dir);
    char db[4096], run[4096];
    snprintf(db, sizeof db, "%s/db", k->dir);
    snprintf(run, sizeof run, "%s/run", k->dir);
    if (files_mkdirs(ps->path_zones) != 0 || files_mkdirs(db) != 0 || files_mkdirs(run) != 0)
        return fail(ps, "cannot create the directories under %.400s", k->dir);
    char *main_conf = knot_render_main(k, ps->path_live);
    char *check_conf = knot_render_main(k, ps->path_new);
    int rc = files_create(ps->path_main, main_conf) == 0 && files_replace(ps->path_check, check_conf) == 0;
    free(main_conf);
    free(check_conf);
    /* knot.conf includes zones.conf: there must be one from the start. */
    if (rc && !files_exist(ps->path_live))
        rc = files_replace(ps->path_live, "# zones.conf: no zones yet.\n") == 0;
    return rc ? 0 : fail(ps, "cannot write the configuration under %.400s", k->dir);
}

static int run_locked(struct pass *ps)
{
    json_t *snap = NULL;
    if (prepare_dir(ps) != 0 || snapshot(ps, &snap) != 0)
        return -1;
    ps->res->zones = (int)json_array_size(snap);
    bool any_pending = plan(ps, snap);
    int rc = -1;
    char *text = render(ps), *live = NULL;
    char out[4096];
    if (!text)
        goto out;
    live = files_read(ps->path_live);
    if (!any_pending && live && strcmp(live, text) == 0) {
        rc = 0; /* nothing changed since the last pass */
        goto out;
    }
    int checked = check(ps, text, out, sizeof out);
    if (checked > 0) {
        free(text);
        text = isolate(ps);
    }
    if (checked < 0 || !text) {
        mark(ps, true); /* zones refused on their own are failed whatever else went wrong */
        goto out;
    }
    bool changed = !live || strcmp(live, text) != 0;
    if (changed && install(ps, text) != 0) {
        mark(ps, true);
        goto out;
    }
    if (!changed)
        unlink(ps->path_new);
    rc = mark(ps, false);
out:
    free(text);
    free(live);
    free(ps->plans);
    json_decref(snap);
    return rc;
}

int dns_deploy_run(struct store *s, const struct dns_deploy_config *cfg, struct dns_deploy_result *res)
{
    memset(res, 0, sizeof *res);
    struct pass ps = {.store = s, .cfg = cfg, .res = res};
    char lock_path[4096];
    snprintf(lock_path, sizeof lock_path, "%s/.deploy.lock", cfg->knot.dir);
    if (files_mkdirs(cfg->knot.dir) != 0)
        return fail(&ps, "cannot create %.400s", cfg->knot.dir);
    int lock = files_lock(lock_path);
    if (lock < 0)
        return fail(&ps, "cannot lock %.400s", lock_path);
    int rc = run_locked(&ps);
    files_unlock(lock);
    return rc;
}
