/* nft_plane.c — see nft_plane.h. */
#include "dataplane/nftables/nft_plane.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/nftables/nft_counters.h"
#include "dataplane/nftables/nft_lib.h"
#include "deploy/files.h"

static const char *const parts[] = {NFT_COUNTER_MAP, NFT_RULESET, NULL};

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

static int reload(const struct dp_plane *p, char *why, size_t why_len)
{
    const struct nft_plane_config *c = p->cfg;
    char path[4200];
    snprintf(path, sizeof path, "%s/" NFT_RULESET, c->dir);
    if (!files_exist(path))
        return 1; /* nothing installed yet */
    int rc = nft_lib_file(path, false, why, why_len);
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
    p->name = "nftables";
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
