/* nginx_deploy.c — one deploy pass (see nginx_deploy.h). */
#include "dataplane/nginx/nginx_deploy.h"

#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/crypto.h"
#include "base/metrics.h"
#include "dataplane/nginx/nginx_conf.h"
#include "dataplane/nginx/nginx_model.h"
#include "dataplane/nginx/nginx_render.h"
#include "dataplane/planes.h"
#include "deploy/exec.h"
#include "deploy/files.h"

#define PLANE DP_PLANE_NGINX
enum { REASON_MAX = 480 };

/* What this pass does with one site. */
struct site_plan {
    const json_t *site;
    int64_t rid;
    char *text;         /* the fragment of its current settings, or NULL (refused) */
    const char *use;    /* what is served: text, the last good fragment, or NULL */
    char digest[65];    /* of text, or of the refusal */
    bool pending, refused;
    char reason[REASON_MAX + 1];
};

struct pass {
    struct store *store;
    const struct nginx_settings *st;
    struct nginx_deploy_result *res;
    struct site_plan *plans;
    size_t n;
    json_t *states; /* {"<rid>": state row} */
    char path_live[4096], path_new[4096], path_check[4096], path_main[4096], path_err[4096];
};

static int fail(struct pass *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct pass *ps, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->res->error, sizeof ps->res->error, fmt, ap);
    va_end(ap);
    return -1;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static json_t *state_of(struct pass *ps, int64_t rid)
{
    char key[32];
    snprintf(key, sizeof key, "%lld", (long long)rid);
    return json_object_get(ps->states, key);
}

static const char *last_good(struct pass *ps, int64_t rid)
{
    return json_string_value(json_object_get(state_of(ps, rid), "deployed"));
}

static void refuse(struct pass *ps, struct site_plan *p, const char *reason)
{
    p->refused = true;
    snprintf(p->reason, sizeof p->reason, "%s", reason);
    p->use = last_good(ps, p->rid);
}

/* nginx's complaint, fit for a client: the first [emerg] line, without the
 * "nginx: " prefix and the configuration's paths (the server's business). */
static void client_reason(const char *out, char *reason, size_t size)
{
    const char *line = strstr(out, "[emerg]");
    line = line ? line + 8 : out;
    char buf[REASON_MAX + 1];
    snprintf(buf, sizeof buf, "%.*s", (int)strcspn(line, "\n"), line);
    for (char *in; (in = strstr(buf, " in /"));) { /* " in /path/file:12" */
        char *end = in + 4 + strcspn(in + 4, " \n");
        memmove(in, end, strlen(end) + 1);
    }
    snprintf(reason, size, "nginx refused the configuration: %.400s", buf);
}

/* ---- files ---- */

static int write_if_changed(const char *path, const char *text, int mode)
{
    char *have = files_read(path);
    int rc = 0;
    if (!have || strcmp(have, text) != 0)
        rc = files_replace(path, text);
    free(have);
    if (rc == 0 && mode)
        rc = chmod(path, (mode_t)mode);
    return rc;
}

/* The files the fragments name (certificates, keys, ModSecurity files). */
static int write_files(struct pass *ps, const json_t *files)
{
    const char *rel;
    json_t *f;
    json_object_foreach ((json_t *)files, rel, f) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", ps->st->dir, rel);
        const char *src = json_string_value(json_object_get(f, "copy"));
        char *copied = src ? files_read(src) : NULL;
        const char *text = src ? copied : json_string_value(json_object_get(f, "text"));
        int rc = text ? write_if_changed(path, text, (int)json_integer_value(json_object_get(f, "mode"))) : -1;
        free(copied);
        if (rc != 0)
            return fail(ps, "cannot write %.400s%s", path, src && !text ? " (its source is unreadable)" : "");
    }
    return 0;
}

/* Removes the files of `sub` that the live configuration no longer names. */
static void collect_garbage(struct pass *ps, const char *sub, const char *live)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", ps->st->dir, sub);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char named[600];
        snprintf(named, sizeof named, "/%s/%s;", sub, e->d_name);
        if (!strstr(live, named)) {
            char path[4096 + 300];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    }
    if (d)
        closedir(d);
}

static int prepare_dir(struct pass *ps)
{
    const char *d = ps->st->dir;
    static const char *const subs[] = {"logs", "tmp", "run", "modsec", "tls", "conf.d"};
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", d, subs[i]);
        if (files_mkdirs(path) != 0)
            return fail(ps, "cannot create %.400s", path);
        if (strcmp(subs[i], "tls") == 0)
            chmod(path, 0700); /* private keys */
    }
    snprintf(ps->path_live, sizeof ps->path_live, "%s/sites.conf", d);
    snprintf(ps->path_new, sizeof ps->path_new, "%s/sites.conf.new", d);
    snprintf(ps->path_check, sizeof ps->path_check, "%s/check.conf", d);
    snprintf(ps->path_main, sizeof ps->path_main, "%s/nginx.conf", d);
    snprintf(ps->path_err, sizeof ps->path_err, "%s/logs/check-error.log", d);
    char base[4096];
    snprintf(base, sizeof base, "%s/modsec-base.conf", d);
    char *main_conf = nginx_main_render(ps->st, ps->path_live);
    char *check_conf = nginx_main_render(ps->st, ps->path_new);
    char *base_conf = nginx_modsec_base_render(ps->st);
    int rc = write_if_changed(ps->path_main, main_conf, 0) | write_if_changed(ps->path_check, check_conf, 0) |
             write_if_changed(base, base_conf, 0);
    free(main_conf);
    free(check_conf);
    free(base_conf);
    /* nginx.conf includes sites.conf: there must be one from the start */
    if (rc == 0 && !files_exist(ps->path_live))
        rc = files_replace(ps->path_live, "# sites.conf: no Application Protection site yet.\n");
    return rc == 0 ? 0 : fail(ps, "cannot write the configuration under %.400s", d);
}

/* ---- checking ---- */

/* Writes `text` as the candidate and asks nginx whether it takes it: 0 yes,
 * 1 no (out says why), -1 the pass failed. Without nginx there is nothing
 * to ask: the API's own checks stand. */
static int check(struct pass *ps, const char *text, char *out, size_t size)
{
    out[0] = '\0';
    metrics_dataplane_check(PLANE);
    if (files_replace(ps->path_new, text) != 0)
        return fail(ps, "cannot write %.400s", ps->path_new);
    if (!ps->st->nginx)
        return 0;
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s/", ps->st->dir);
    const char *argv[] = {ps->st->nginx, "-t", "-q", "-c", ps->path_check, "-p", prefix, "-e", ps->path_err, NULL};
    double t0 = now_s();
    int rc = exec_capture(argv, out, size);
    ps->res->check_s += now_s() - t0;
    if (rc == 0 && strstr(out, "conflicting server name")) /* only a [warn]: nginx would ignore one */
        rc = 1;
    return rc == 0 ? 0 : 1;
}

static char *compose(struct pass *ps)
{
    size_t len = 64;
    for (size_t i = 0; i < ps->n; i++)
        len += ps->plans[i].use ? strlen(ps->plans[i].use) + 1 : 0;
    char *text = malloc(len), *at = text;
    at += sprintf(at, "# sites.conf - written by parapet\n");
    for (size_t i = 0; i < ps->n; i++)
        if (ps->plans[i].use)
            at += sprintf(at, "%s\n", ps->plans[i].use);
    return text;
}

/* The candidate nginx refused: refuse the pending sites nginx refuses on
 * their own, and try again without them. The text to install, or NULL. */
static char *isolate(struct pass *ps)
{
    char out[4096];
    for (size_t i = 0; i < ps->n; i++) {
        struct site_plan *p = &ps->plans[i];
        if (!p->pending || p->refused)
            continue;
        int rc = check(ps, p->text, out, sizeof out);
        if (rc < 0)
            return NULL;
        if (rc > 0) {
            char reason[REASON_MAX + 1];
            client_reason(out, reason, sizeof reason);
            refuse(ps, p, reason);
        }
    }
    char *text = compose(ps);
    int rc = check(ps, text, out, sizeof out);
    if (rc != 0) {
        if (rc > 0) { /* each site passes alone, together they do not */
            char reason[REASON_MAX + 1];
            client_reason(out, reason, sizeof reason);
            fail(ps, "%s", reason);
        }
        free(text);
        return NULL;
    }
    return text;
}

/* ---- the store ---- */

static int snapshot(struct pass *ps, json_t **model)
{
    struct store *s = ps->store;
    if (s->ops->begin(s, false) != STORE_OK)
        return fail(ps, "%s", "the store is not available");
    json_t *rows = NULL;
    int rc = nginx_model_load(s, model);
    if (rc == STORE_OK)
        rc = s->ops->dataplane_states(s, PLANE, 0, &rows);
    s->ops->commit(s);
    if (rc != STORE_OK) {
        json_decref(rows);
        return fail(ps, "%s", "the sites could not be read");
    }
    ps->states = json_object();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        char key[32];
        snprintf(key, sizeof key, "%lld", (long long)json_integer_value(json_object_get(row, "site_rid")));
        json_object_set(ps->states, key, row);
    }
    json_decref(rows);
    return 0;
}

/* Records the outcome of every pending site in one transaction. With
 * `refused_only`, successes wait for a later pass. */
static int mark(struct pass *ps, bool refused_only)
{
    struct store *s = ps->store;
    if (s->ops->begin(s, true) != STORE_OK)
        return fail(ps, "%s", "the store is not available");
    int rc = STORE_OK;
    for (size_t i = 0; i < ps->n && rc == STORE_OK; i++) {
        struct site_plan *p = &ps->plans[i];
        if (!p->pending || (refused_only && !p->refused))
            continue;
        if (p->refused) {
            rc = s->ops->dataplane_state_set(s, PLANE, p->rid, "failed", p->reason, p->digest, NULL);
            ps->res->failed++;
        } else {
            rc = s->ops->dataplane_state_set(s, PLANE, p->rid, "deployed", "", p->digest, p->text);
            ps->res->deployed++;
        }
    }
    if (rc != STORE_OK || s->ops->commit(s) != STORE_OK) {
        s->ops->rollback(s);
        return fail(ps, "%s", "the deploy states could not be saved");
    }
    return 0;
}

/* ---- planning ---- */

static bool plan(struct pass *ps, const json_t *model, json_t *files)
{
    bool any_pending = false;
    json_t *listens = json_object();
    ps->n = json_array_size(model);
    ps->plans = calloc(ps->n + 1, sizeof *ps->plans);
    double t0 = now_s();
    for (size_t i = 0; i < ps->n; i++) {
        struct site_plan *p = &ps->plans[i];
        p->site = json_array_get(model, i);
        p->rid = json_integer_value(json_object_get(p->site, "rid"));
        char err[REASON_MAX + 1] = "";
        json_t *mine = json_object();
        if (nginx_listens_claim(listens, p->site, ps->st, err, sizeof err) == 0)
            p->text = nginx_site_render(p->site, ps->st, listens, mine, err, sizeof err);
        if (p->text)
            sha256_hex(p->text, p->digest);
        else {
            char what[REASON_MAX + 16];
            snprintf(what, sizeof what, "refused: %s", err);
            sha256_hex(what, p->digest);
        }
        json_t *state = state_of(ps, p->rid);
        const char *was = json_string_value(json_object_get(state, "state"));
        bool same = state && strcmp(json_string_value(json_object_get(state, "digest")), p->digest) == 0;
        if (same && was && strcmp(was, "deployed") == 0) {
            p->use = p->text;
        } else if (same && was && strcmp(was, "failed") == 0) {
            p->use = last_good(ps, p->rid); /* refused before: served as it last was, until it changes */
        } else {
            p->pending = true;
            if (p->text)
                p->use = p->text;
            else
                refuse(ps, p, err);
        }
        if (p->text)
            json_object_update(files, mine);
        json_decref(mine);
        any_pending |= p->pending;
    }
    ps->res->render_s = now_s() - t0;
    json_decref(listens);
    return any_pending;
}

/* Tells the running nginx (its pid file) to load the new configuration. */
static void reload(struct pass *ps)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/" NGINX_PID_FILE, ps->st->dir);
    char *text = files_read(path);
    long pid = text ? strtol(text, NULL, 10) : 0;
    free(text);
    if (pid > 1 && kill((pid_t)pid, SIGHUP) == 0)
        ps->res->reloaded = true;
}

static int run_locked(struct pass *ps)
{
    json_t *model = NULL, *files = json_object();
    char *text = NULL, *live = NULL;
    int rc = -1;
    if (prepare_dir(ps) != 0 || snapshot(ps, &model) != 0)
        goto out;
    ps->res->sites = (int)ps->n;
    bool any_pending = plan(ps, model, files);
    ps->res->sites = (int)ps->n;
    if (write_files(ps, files) != 0)
        goto out;
    text = compose(ps);
    live = files_read(ps->path_live);
    if (!any_pending && live && strcmp(live, text) == 0) {
        rc = 0; /* nothing changed since the last pass */
        goto out;
    }
    char out[4096];
    int checked = check(ps, text, out, sizeof out);
    if (checked > 0) {
        free(text);
        text = isolate(ps);
    }
    if (checked < 0 || !text) {
        mark(ps, true); /* sites refused on their own are failed whatever else went wrong */
        goto out;
    }
    bool changed = !live || strcmp(live, text) != 0;
    if (changed) {
        if (files_replace(ps->path_live, text) != 0) {
            fail(ps, "cannot write %.400s", ps->path_live);
            mark(ps, true);
            goto out;
        }
        ps->res->installed = true;
        collect_garbage(ps, "modsec", text);
        collect_garbage(ps, "tls", text);
        reload(ps);
    }
    unlink(ps->path_new);
    rc = mark(ps, false);
out:
    for (size_t i = 0; i < ps->n; i++)
        free(ps->plans[i].text);
    free(ps->plans);
    free(text);
    free(live);
    json_decref(files);
    json_decref(model);
    json_decref(ps->states);
    return rc;
}

int nginx_deploy_run(struct store *s, const struct nginx_settings *st, struct nginx_deploy_result *res)
{
    memset(res, 0, sizeof *res);
    struct pass ps = {.store = s, .st = st, .res = res};
    char lock_path[4096];
    snprintf(lock_path, sizeof lock_path, "%s/.deploy.lock", st->dir);
    if (files_mkdirs(st->dir) != 0)
        return fail(&ps, "cannot create %.400s", st->dir);
    int lock = files_lock(lock_path);
    if (lock < 0)
        return fail(&ps, "cannot lock %.400s", lock_path);
    int rc = run_locked(&ps);
    files_unlock(lock);
    return rc;
}
