/* console_assets.h — the web console's static files, built into the binary
 * by tools/embed-console.sh from the top-level console/ directory. */
#ifndef PARAPET_CONSOLE_ASSETS_H
#define PARAPET_CONSOLE_ASSETS_H

#include <stddef.h>

struct console_asset {
    const char *path; /* relative to console/, e.g. "js/app.js" */
    const unsigned char *data;
    size_t len;
    const char *etag; /* a quoted entity tag */
};

extern const struct console_asset console_assets[];
extern const int console_assets_count;

#endif
