/* nft_plane.c — see nft_plane.h. */
#include "dataplane/nftables/nft_plane.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "dataplane/nftables/nft_counters.h"
#include "dataplane/nftables/nft_lib.h"
#include "dataplane/planes.h"
#include "deploy/files.h"

static const char *const parts[] = {NFT_COUNTER_MAP, NFT_OBJECTS, NFT_RULESET, NULL};

static json_t *header(const struct dp_plane *p)
{
    const struct nft_plane_config *c = p->cfg;
    return nft_render_header(&c->render);
}

static json_t *site(const struct dp_plane *p, const json_t *s, const char *family, json_t *notes)
{
    const struct nft_plane_config *c = p->cfg;
    return nft_render_site(&c->render, s, family, notes);
}

/* The candidate is checked from a file (nftables 1.0.6 shows the wrong line
 * of a buffer in its messages). */
static int check(const struct dp_plane *p, const json_t *cand, const json_t *fresh, char *why, size_t why_len)
{
    (void)fresh;
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/check", p->dir);
    snprintf(path, sizeof path, "%s/" NFT_RULESET, dir);
    if (files_mkdirs(dir) != 0 || files_replace(path, json_string_value(json_object_get(cand, NFT_RULESET))) != 0) {
        snprintf(why, why_len, "cannot write %s", path);
        return -1;
    }
    return nft_lib_file(path, true, why, why_len);
}

int nft_plane_collect(const struct nft_plane_config *cfg, char *why, size_t why_len)
{
    char map[4200];
    snprintf(map, sizeof map, "%s/" NFT_COUNTER_MAP, cfg->dir);
    return nft_counters_collect(cfg->render.table, map, why, why_len);
}

static void before_install(const struct dp_plane *p)
{
    char why[512];
    if (nft_plane_collect(p->cfg, why, sizeof why) < 0)
        fprintf(stderr, "parapet: nftables: counters not read before the new ruleset: %s\n", why);
}

/* The live table's chains, counters and sets as {"chain NAME": true, ...}
 * (anonymous sets left out); NULL when there is no such table. */
static json_t *live_objects(const char *table)
{
    char command[128], why[512], *out = NULL;
    snprintf(command, sizeof command, "list table inet %s", table);
    if (nft_lib_json(command, &out, why, sizeof why) != 0) {
        free(out);
        return NULL;
    }
    json_t *doc = json_loads(out, 0, NULL), *found = json_object(), *item;
    free(out);
    static const char *const kinds[] = {"chain", "set", "counter"};
    size_t i;
    json_array_foreach (json_object_get(doc, "nftables"), i, item) {
        for (int k = 0; k < 3; k++) {
            const char *name = json_string_value(json_object_get(json_object_get(item, kinds[k]), "name"));
            if (name && strncmp(name, "__", 2) != 0) {
                char key[300];
                snprintf(key, sizeof key, "%s %s", kinds[k], name);
                json_object_set_new(found, key, json_true());
            }
        }
    }
    json_decref(doc);
    return found;
}

/* The installed ruleset applied in one transaction, with the deletion of
 * what the live table holds and the ruleset no longer names: its counters
 * go on counting. Should nftables refuse that (e.g. a set whose type
 * changed), the table is replaced whole, its counters read first. */
static int reload(const struct dp_plane *p, char *why, size_t why_len)
{
    const struct nft_plane_config *c = p->cfg;
    char path[4200];
    snprintf(path, sizeof path, "%s/" NFT_RULESET, c->dir);
    char *text = files_read(path);
    if (!text)
        return 1; /* nothing installed yet */
    snprintf(path, sizeof path, "%s/" NFT_OBJECTS, c->dir);
    char *objects = files_read(path);
    json_t *rendered = json_object(), *live = live_objects(c->render.table);
    for (const char *line = objects ? objects : ""; *line;) {
        size_t len = strcspn(line, "\n");
        char key[300];
        snprintf(key, sizeof key, "%.*s", (int)len, line);
        json_object_set_new(rendered, key, json_true());
        line += len + (line[len] == '\n');
    }
    struct strbuf b = {0};
    sb_add(&b, text);
    const char *key;
    json_t *v;
    json_object_foreach (live, key, v)
        if (!json_object_get(rendered, key))
            sb_printf(&b, "delete %.*s inet %s %s\n", (int)strcspn(key, " "), key, c->render.table,
                      key + strcspn(key, " ") + 1);
    json_decref(live);
    json_decref(rendered);
    free(objects);
    int rc = nft_lib_text(sb_text(&b), false, why, why_len);
    sb_free(&b);
    if (rc == 1) {
        char why2[512];
        if (nft_plane_collect(c, why2, sizeof why2) < 0)
            fprintf(stderr, "parapet: nftables: counters not read before the table is replaced: %s\n", why2);
        sb_printf(&b, "table inet %s\ndelete table inet %s\n%s", c->render.table, c->render.table, text);
        rc = nft_lib_text(sb_text(&b), false, why, why_len);
        sb_free(&b);
    }
    free(text);
    return rc == 0 ? 0 : -1;
}

void nft_plane_refresh(struct dp_plane *p)
{
    const struct nft_plane_config *c = p->cfg;
    char why[512], *out = NULL;
    if (nft_lib_json("list tables inet", &out, why, sizeof why) != 0) {
        free(out);
        return; /* nftables cannot answer: the pass will say so */
    }
    json_t *doc = json_loads(out, 0, NULL), *item;
    free(out);
    bool present = false;
    size_t i;
    json_array_foreach (json_object_get(doc, "nftables"), i, item) {
        const char *name = json_string_value(json_object_get(json_object_get(item, "table"), "name"));
        if (name && strcmp(name, c->render.table) == 0)
            present = true;
    }
    json_decref(doc);
    if (!present)
        p->reload_owed = true;
}

void nft_plane_init(struct dp_plane *p, const struct nft_plane_config *cfg)
{
    memset(p, 0, sizeof *p);
    p->name = DP_PLANE_NFTABLES;
    p->dir = cfg->dir;
    p->parts = parts;
    p->header = header;
    p->site = site;
    p->check = check;
    p->reload = reload;
    p->before_install = before_install;
    p->cfg = cfg;
    p->reload_owed = true;
}
