/* plane.c — one deploy pass of a fragment-rendering data plane (plane.h). */
#include "dataplane/plane.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/crypto.h"
#include "base/metrics.h"
#include "base/strbuf.h"
#include "deploy/files.h"

struct site_plan {
    int64_t rid;
    json_t *fragment; /* rendered now */
    char *text;       /* its JSON text, as stored when it deploys */
    char digest[65];
    char notes[1024];
    json_t *use;      /* what is served: fragment, the last good one, or NULL */
    bool pending, refused;
    char reason[1024];
};

struct pass {
    struct store *s;
    struct dp_plane *p;
    struct dp_pass_result *res;
    json_t *header;
    struct site_plan *plans;
    size_t n;
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

json_t *dp_assemble(const struct dp_plane *p, const json_t *header, const json_t *fragments)
{
    json_t *out = json_object();
    for (const char *const *part = p->parts; *part; part++) {
        struct strbuf b = {0};
        sb_add(&b, json_string_value(json_object_get(header, *part)) ?: "");
        size_t i;
        json_t *f;
        json_array_foreach ((json_t *)fragments, i, f)
            sb_add(&b, json_string_value(json_object_get(f, *part)) ?: "");
        json_object_set_new(out, *part, json_string(sb_text(&b)));
        sb_free(&b);
    }
    return out;
}

/* The header and what each site serves; fresh_only: only the fragments
 * no check accepted under this header yet (pending, not refused). */
static json_t *assemble_served(struct pass *ps, bool fresh_only)
{
    json_t *frags = json_array();
    for (size_t i = 0; i < ps->n; i++)
        if (ps->plans[i].use && (!fresh_only || (ps->plans[i].pending && !ps->plans[i].refused)))
            json_array_append(frags, ps->plans[i].use);
    json_t *all = dp_assemble(ps->p, ps->header, frags);
    json_decref(frags);
    return all;
}

static json_t *assemble_used(struct pass *ps)
{
    return assemble_served(ps, false);
}

/* One call of the plane's checker, counted. */
static int check(struct pass *ps, const json_t *whole, const json_t *fresh, char *why, size_t why_len)
{
    ps->res->checks++;
    metrics_dataplane_check(ps->p->name);
    return ps->p->check(ps->p, whole, fresh, why, why_len);
}

/* The whole served now, and its fresh part, checked. */
static int check_served(struct pass *ps, const json_t *whole, char *why, size_t why_len)
{
    json_t *fresh = assemble_served(ps, true);
    int rc = check(ps, whole, fresh, why, why_len);
    json_decref(fresh);
    return rc;
}

static void join_notes(const json_t *notes, char *out, size_t size)
{
    out[0] = '\0';
    size_t i;
    json_t *v;
    json_array_foreach ((json_t *)notes, i, v) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s", len ? "; " : "", json_string_value(v));
    }
}

/* A site the checker refused is tried again after this long even when
 * nothing changed (whatever made it fail may have gone), and at once when
 * its fragment or the plane's header (the operator's options) changed. */
enum { DP_RETRY_S = 300 };

/* Renders every site and decides what each serves from its stored state. */
static void plan(struct pass *ps, const json_t *model, const json_t *states)
{
    static const char *const families[] = {"op", "cp"};
    char *header = json_dumps(ps->header, JSON_COMPACT | JSON_SORT_KEYS);
    int64_t now = (int64_t)time(NULL);
    size_t total = json_array_size(json_object_get(model, "op_sites")) +
                   json_array_size(json_object_get(model, "cp_sites"));
    ps->plans = calloc(total + 1, sizeof *ps->plans);
    for (int f = 0; f < 2; f++) {
        char key[16];
        snprintf(key, sizeof key, "%s_sites", families[f]);
        size_t i;
        json_t *site;
        json_array_foreach (json_object_get(model, key), i, site) {
            struct site_plan *sp = &ps->plans[ps->n++];
            sp->rid = json_integer_value(json_object_get(site, "rid"));
            json_t *notes = json_array();
            sp->fragment = ps->p->site(ps->p, site, families[f], notes);
            join_notes(notes, sp->notes, sizeof sp->notes);
            json_decref(notes);
            sp->text = json_dumps(sp->fragment, JSON_COMPACT | JSON_SORT_KEYS);
            struct strbuf both = {0};
            sb_printf(&both, "%s\n%s", header ? header : "", sp->text);
            sha256_hex(sb_text(&both), sp->digest);
            sb_free(&both);
            char rid[24];
            snprintf(rid, sizeof rid, "%lld", (long long)sp->rid);
            const json_t *st = json_object_get(states, rid);
            const char *state = json_string_value(json_object_get(st, "state"));
            bool same = st && strcmp(json_string_value(json_object_get(st, "digest")), sp->digest) == 0;
            bool failed = st && strcmp(state, "failed") == 0;
            if (same && failed && now - json_integer_value(json_object_get(st, "updated_at")) < DP_RETRY_S) {
                const char *good = json_string_value(json_object_get(st, "deployed"));
                sp->use = good ? json_loads(good, 0, NULL) : NULL;
                continue;
            }
            sp->use = json_incref(sp->fragment);
            sp->pending = !same || strcmp(state, "deployed") != 0 ||
                          strcmp(json_string_value(json_object_get(st, "reason")), sp->notes) != 0;
            if (st && (!same || failed)) { /* keep the last good fragment at hand for a refusal */
                const char *good = json_string_value(json_object_get(st, "deployed"));
                if (good)
                    json_object_set_new(sp->fragment, "\x01good", json_string(good));
            }
        }
    }
    free(header);
}

/* The site's last good fragment (what it is served when refused). */
static json_t *last_good(struct site_plan *sp)
{
    const char *good = json_string_value(json_object_get(sp->fragment, "\x01good"));
    return good ? json_loads(good, 0, NULL) : NULL;
}

/* The whole refused: each pending fragment alone with the header, then
 * the rest again. Returns 0 (accepted), 1 (still refused) or -1. */
static int isolate(struct pass *ps, json_t **whole)
{
    char why[1024];
    for (size_t i = 0; i < ps->n; i++) {
        struct site_plan *sp = &ps->plans[i];
        if (!sp->pending)
            continue;
        json_t *one = json_pack("[O]", sp->fragment);
        json_t *alone = dp_assemble(ps->p, ps->header, one);
        json_decref(one);
        int rc = check(ps, alone, alone, why, sizeof why);
        json_decref(alone);
        if (rc < 0)
            return fail(ps, "%s", why);
        if (rc > 0) {
            sp->refused = true;
            snprintf(sp->reason, sizeof sp->reason, "%s", why);
            json_decref(sp->use);
            sp->use = last_good(sp);
        }
    }
    json_decref(*whole);
    *whole = assemble_used(ps);
    int rc = check_served(ps, *whole, why, sizeof why);
    if (rc != 0)
        fail(ps, "the configuration was refused as a whole: %.400s", why);
    return rc;
}

static bool same_as_live(struct pass *ps, const json_t *whole)
{
    for (const char *const *part = ps->p->parts; *part; part++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", ps->p->dir, *part);
        char *live = files_read(path);
        bool same = live && strcmp(live, json_string_value(json_object_get(whole, *part))) == 0;
        free(live);
        if (!same)
            return false;
    }
    return true;
}

static int install(struct pass *ps, const json_t *whole)
{
    if (ps->p->before_install)
        ps->p->before_install(ps->p);
    for (const char *const *part = ps->p->parts; *part; part++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", ps->p->dir, *part);
        if (files_replace(path, json_string_value(json_object_get(whole, *part))) != 0)
            return fail(ps, "cannot write %.400s", path);
    }
    ps->res->installed = true;
    ps->p->reload_owed = ps->p->reload != NULL;
    return 0;
}

/* Marks every pending site; refused_only: the others wait for a later pass. */
static int mark(struct pass *ps, bool refused_only)
{
    struct store *s = ps->s;
    if (s->ops->begin(s, true) != STORE_OK)
        return fail(ps, "%s", "the store is not available");
    int rc = STORE_OK;
    for (size_t i = 0; i < ps->n && rc == STORE_OK; i++) {
        struct site_plan *sp = &ps->plans[i];
        if (!sp->pending || (refused_only && !sp->refused))
            continue;
        if (sp->refused) {
            rc = s->ops->dataplane_state_set(s, ps->p->name, sp->rid, "failed", sp->reason, sp->digest, NULL);
            ps->res->failed++;
        } else {
            rc = s->ops->dataplane_state_set(s, ps->p->name, sp->rid, "deployed", sp->notes, sp->digest, sp->text);
            ps->res->deployed++;
        }
    }
    if (rc == STORE_OK && s->ops->commit(s) == STORE_OK)
        return 0;
    s->ops->rollback(s);
    return fail(ps, "%s", "the deploy states could not be saved");
}

static json_t *states_by_rid(struct pass *ps)
{
    struct store *s = ps->s;
    json_t *rows = NULL, *by = json_object();
    if (s->ops->begin(s, false) != STORE_OK)
        return by;
    if (s->ops->dataplane_states(s, ps->p->name, 0, &rows) == STORE_OK) {
        size_t i;
        json_t *row;
        json_array_foreach (rows, i, row) {
            char rid[24];
            snprintf(rid, sizeof rid, "%lld", (long long)json_integer_value(json_object_get(row, "site_rid")));
            json_object_set(by, rid, row);
        }
    }
    s->ops->commit(s);
    json_decref(rows);
    return by;
}

static bool any_pending(const struct pass *ps)
{
    for (size_t i = 0; i < ps->n; i++)
        if (ps->plans[i].pending)
            return true;
    return false;
}

/* Checks, installs and marks what changed: 0, or -1 (res->error). */
static int deploy(struct pass *ps, const json_t *model)
{
    json_t *states = states_by_rid(ps);
    plan(ps, model, states);
    json_decref(states);
    ps->res->sites = (int)ps->n;
    json_t *whole = assemble_used(ps);
    if (!any_pending(ps) && same_as_live(ps, whole)) {
        json_decref(whole);
        return 0; /* checked, installed and marked by an earlier pass */
    }
    char why[1024];
    int rc = check_served(ps, whole, why, sizeof why);
    if (rc < 0)
        fail(ps, "the checker could not run: %.400s", why);
    else if (rc > 0)
        rc = isolate(ps, &whole);
    if (rc != 0) {
        mark(ps, true); /* sites refused on their own are failed whatever else went wrong */
        json_decref(whole);
        return -1;
    }
    if (!same_as_live(ps, whole) && install(ps, whole) != 0) {
        mark(ps, true);
        json_decref(whole);
        return -1;
    }
    json_decref(whole);
    return mark(ps, false);
}

static int run(struct pass *ps, const json_t *model)
{
    int rc = deploy(ps, model);
    if (ps->p->reload_owed) { /* installed now, or a reload that failed before */
        char why[1024];
        int told = ps->p->reload(ps->p, why, sizeof why);
        if (told < 0)
            return fail(ps, "installed, but the daemon was not told: %.400s", why);
        ps->p->reload_owed = false;
        ps->res->reloaded = told == 0;
    }
    return rc;
}

int dp_plane_pass(struct store *s, struct dp_plane *p, const json_t *model, struct dp_pass_result *res)
{
    memset(res, 0, sizeof *res);
    struct pass ps = {.s = s, .p = p, .res = res};
    if (files_mkdirs(p->dir) != 0)
        return fail(&ps, "cannot create %.400s", p->dir);
    char lock_path[4200];
    snprintf(lock_path, sizeof lock_path, "%s/.lock", p->dir);
    int lock = files_lock(lock_path); /* passes of several processes take turns */
    if (lock < 0)
        return fail(&ps, "cannot lock %.400s", lock_path);
    ps.header = p->header(p);
    int rc = run(&ps, model);
    files_unlock(lock);
    for (size_t i = 0; i < ps.n; i++) {
        json_decref(ps.plans[i].fragment);
        json_decref(ps.plans[i].use);
        free(ps.plans[i].text);
    }
    free(ps.plans);
    json_decref(ps.header);
    return rc;
}
