/* plane.h — one deploy pass of a data plane that renders per-site fragments
 * (FastNetMon, BIRD): the machinery both share (docs/dataplane.md).
 *
 * A plane's configuration is a few files ("parts"); each is a header part
 * followed by every site's fragment of it, in the model's order (Origin
 * Protection sites, then CleanPipe sites). A pass renders each site's
 * fragment and compares its digest with the stored deploy state:
 *  - unchanged and deployed: kept; unchanged and failed: the last fragment
 *    that deployed is served instead (none: the site is left out), and the
 *    new one is tried again after 5 minutes ("unchanged": the same fragment
 *    under the same header, so a change of the operator's options retries);
 *  - new: assembled with the rest and checked (the plane's checker). When the
 *    whole is refused, each new fragment is checked alone with the header;
 *    those refused are marked failed with the checker's message and replaced
 *    by their last good fragment, and the rest is checked again.
 * Nothing pending and the live files the same: nothing is checked (a pass
 * after a write that changed nothing this plane renders costs a render).
 * The files are installed (atomically, each) only when they differ from the
 * live ones, then the running daemon is told (reload); a reload that fails
 * is tried again on the next pass. Deployed states carry as reason what the
 * site asks for that the plane cannot express ("" when nothing). */
#ifndef PARAPET_DATAPLANE_PLANE_H
#define PARAPET_DATAPLANE_PLANE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"

struct dp_plane {
    const char *name;         /* the state's plane: "fastnetmon", "bird" */
    const char *dir;          /* absolute: where the parts are installed */
    const char *const *parts; /* file names, in install order; NULL-terminated */
    json_t *(*header)(const struct dp_plane *p);
    /* One site's fragment {part: text}; family "op" or "cp"; notes: an array
     * to append what cannot be expressed to. */
    json_t *(*site)(const struct dp_plane *p, const json_t *site, const char *family, json_t *notes);
    /* Checks a whole candidate {part: text}: 0 accepted, 1 refused (why
     * says why, fit for the client), -1 the checker could not run. `fresh`
     * is the header with only the fragments no check has accepted under it
     * yet (a plane whose checker is slow on a large whole may run it on
     * these alone, when its own validation covers what spans fragments). */
    int (*check)(const struct dp_plane *p, const json_t *whole, const json_t *fresh, char *why, size_t why_len);
    /* Tells the running daemon the installed files changed: 0; 1 when no
     * daemon runs (it reads the files when it starts); -1 failed (tried
     * again next pass). NULL: nothing to tell. */
    int (*reload)(const struct dp_plane *p, char *why, size_t why_len);
    /* Called before changed files are installed (NULL: nothing): the
     * nftables plane reads its counters while the old ruleset still runs. */
    void (*before_install)(const struct dp_plane *p);
    const void *cfg;   /* the plane's settings */
    bool reload_owed;  /* the last reload failed */
};

/* What one pass did (for the log and for tests). */
struct dp_pass_result {
    int sites, deployed, failed;
    int checks; /* calls of the plane's checker */
    bool installed, reloaded;
    char error[512];
};

/* One pass over `model` (dataplane/model.h). 0, or -1 (res->error). */
int dp_plane_pass(struct store *s, struct dp_plane *p, const json_t *model, struct dp_pass_result *res);

/* The whole configuration: the header and the fragments, part by part
 * (new reference). */
json_t *dp_assemble(const struct dp_plane *p, const json_t *header, const json_t *fragments);

#endif
