/* bird_plane.c — see bird_plane.h. */
#include "dataplane/bird/bird_plane.h"

#include <stdio.h>
#include <string.h>

#include "dataplane/bird/bird_ctl.h"
#include "dataplane/planes.h"
#include "deploy/exec.h"
#include "deploy/files.h"

static const char *const parts[] = {BIRD_DIVERT4, BIRD_DIVERT6, BIRD_FLOW4, BIRD_FLOW6, BIRD_CONF, NULL};

static json_t *header(const struct dp_plane *p)
{
    const struct bird_plane_config *c = p->cfg;
    return bird_render_header(&c->render);
}

static json_t *site(const struct dp_plane *p, const json_t *s, const char *family, json_t *notes)
{
    (void)p;
    return bird_render_site(s, family, notes);
}

/* `bird: /dir/check/flow4.conf:3:20 message` without the directory. */
static void bird_message(const char *out, const char *dir, char *why, size_t why_len)
{
    const char *line = strstr(out, "bird: ") ? strstr(out, "bird: ") + 6 : out;
    size_t dir_len = strlen(dir);
    if (strncmp(line, dir, dir_len) == 0 && line[dir_len] == '/')
        line += dir_len + 1;
    snprintf(why, why_len, "BIRD refused the configuration: %.*s", (int)strcspn(line, "\n"), line);
}

/* `bird -p` on the whole (a few ms for thousands of routes). */
static int check(const struct dp_plane *p, const json_t *cand, const json_t *fresh, char *why, size_t why_len)
{
    (void)fresh;
    const struct bird_plane_config *c = p->cfg;
    if (!c->bird)
        return 0;
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/check", p->dir);
    if (files_mkdirs(dir) != 0) {
        snprintf(why, why_len, "cannot create %s", dir);
        return -1;
    }
    for (const char *const *part = parts; *part; part++) {
        snprintf(path, sizeof path, "%s/%s", dir, *part);
        if (files_replace(path, json_string_value(json_object_get(cand, *part))) != 0) {
            snprintf(why, why_len, "cannot write %s", path);
            return -1;
        }
    }
    snprintf(path, sizeof path, "%s/" BIRD_CONF, dir);
    const char *argv[] = {c->bird, "-p", "-c", path, NULL};
    char out[4096];
    int rc = exec_capture(argv, out, sizeof out);
    if (rc < 0) {
        snprintf(why, why_len, "%s", out);
        return -1;
    }
    if (rc != 0) {
        bird_message(out, dir, why, why_len);
        return 1;
    }
    return 0;
}

static int reload(const struct dp_plane *p, char *why, size_t why_len)
{
    const struct bird_plane_config *c = p->cfg;
    char out[2048];
    int code = bird_ctl(c->socket, "configure", 5000, out, sizeof out);
    if (code == -2)
        return 1; /* not running: it reads the installed files when it starts */
    if (code >= 0 && code < 1000)
        return 0;
    snprintf(why, why_len, "birdc configure: %.400s", out);
    return -1;
}

void bird_plane_init(struct dp_plane *p, const struct bird_plane_config *cfg)
{
    memset(p, 0, sizeof *p);
    p->name = DP_PLANE_BIRD;
    p->dir = cfg->render.dir;
    p->parts = parts;
    p->header = header;
    p->site = site;
    p->check = check;
    p->reload = cfg->socket ? reload : NULL;
    p->cfg = cfg;
}
