/* fnm_plane.c — see fnm_plane.h. */
#include "dataplane/fastnetmon/fnm_plane.h"

#include <stdio.h>
#include <string.h>

#include "dataplane/fastnetmon/fnm_validate.h"
#include "dataplane/planes.h"
#include "deploy/exec.h"
#include "deploy/files.h"

static const char *const parts[] = {FNM_NETWORKS, FNM_WHITELIST, FNM_CONF, NULL};

static json_t *header(const struct dp_plane *p)
{
    const struct fnm_plane_config *c = p->cfg;
    return fnm_render_header(&c->render);
}

static json_t *site(const struct dp_plane *p, const json_t *s, const char *family, json_t *notes)
{
    (void)p;
    return fnm_render_site(s, family, notes);
}

static const char *part(const json_t *parts_json, const char *name)
{
    return json_string_value(json_object_get(parts_json, name));
}

/* parapet's validator takes the whole (hostgroup names, CIDRs in two groups,
 * networks_list: what spans sites); `fastnetmon --configuration_check`,
 * which reads the file line by line (2.5 s of CPU for 1,000 hostgroups),
 * only the header and the fragments it has not accepted under it yet. */
static int check(const struct dp_plane *p, const json_t *whole, const json_t *fresh, char *why, size_t why_len)
{
    const struct fnm_plane_config *c = p->cfg;
    if (fnm_validate(part(whole, FNM_CONF), part(whole, FNM_NETWORKS), part(whole, FNM_WHITELIST), why, why_len))
        return 1;
    if (!c->fastnetmon)
        return 0;
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/check", p->dir);
    snprintf(path, sizeof path, "%s/" FNM_CONF, dir);
    if (files_mkdirs(dir) != 0 || files_replace(path, part(fresh, FNM_CONF)) != 0) {
        snprintf(why, why_len, "cannot write %s", path);
        return -1;
    }
    const char *argv[] = {c->fastnetmon, "--configuration_check", "--configuration_file", path,
                          "--log_to_console", "--disable_pid_logic", NULL};
    char out[8192];
    int rc = exec_capture(argv, out, sizeof out);
    if (rc < 0) {
        snprintf(why, why_len, "%s", out);
        return -1;
    }
    for (char *save = NULL, *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (fnm_check_line_fails(line)) {
            snprintf(why, why_len, "FastNetMon refused the configuration: %.400s", line);
            return 1;
        }
    if (rc != 0) {
        snprintf(why, why_len, "fastnetmon --configuration_check exited %d", rc);
        return 1;
    }
    return 0;
}

static int reload(const struct dp_plane *p, char *why, size_t why_len)
{
    const struct fnm_plane_config *c = p->cfg;
    const char *argv[] = {"/bin/sh", "-c", c->reload_cmd, NULL};
    char out[1024];
    int rc = exec_capture(argv, out, sizeof out);
    if (rc != 0)
        snprintf(why, why_len, "%s exited %d: %.300s", c->reload_cmd, rc, out);
    return rc == 0 ? 0 : -1;
}

void fnm_plane_init(struct dp_plane *p, const struct fnm_plane_config *cfg)
{
    memset(p, 0, sizeof *p);
    p->name = DP_PLANE_FASTNETMON;
    p->dir = cfg->render.dir;
    p->parts = parts;
    p->header = header;
    p->site = site;
    p->check = check;
    p->reload = cfg->reload_cmd ? reload : NULL;
    p->cfg = cfg;
}
