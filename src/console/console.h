/* console.h — the web console under /console/ (issue 21): its static files,
 * built into the binary, and Chart.js, read from Debian's libjs-chart.js at
 * run time. Nothing here knows about HTTP libraries; server/console_http.c
 * turns a console_file into a response with the console's strict headers.
 * The console is a client of the public API only: it has no endpoint of its
 * own. */
#ifndef PARAPET_CONSOLE_H
#define PARAPET_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

#define CONSOLE_CHARTJS_DIR "/usr/share/javascript/chart.js"

/* The headers every console response carries. */
#define CONSOLE_CSP                                                                                          \
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "    \
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

struct console_file {
    int status;           /* 200, 301, 304, 404, 405 */
    const char *type;     /* Content-Type */
    const void *body;     /* the bytes (or a message) */
    size_t len;
    bool owned;           /* body is malloc'd: the caller frees it */
    char etag[64];        /* a quoted entity tag, "" if none */
    const char *location; /* 301 */
};

/* chartjs_dir: where libjs-chart.js put chart.esm.js (NULL: the Debian
 * path). Returns 0, or -1 with a message on stderr when Chart.js is not
 * there (the console then draws no charts and says why). */
int console_configure(const char *chartjs_dir);

/* Whether path (raw, without query) belongs to the console. */
bool console_path(const char *path);

/* The answer to a GET or HEAD of path (is_get_or_head false: 405).
 * if_none_match: the request's If-None-Match header, or NULL. */
void console_lookup(const char *path, bool is_get_or_head, const char *if_none_match, struct console_file *out);

#endif
