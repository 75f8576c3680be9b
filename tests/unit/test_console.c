/* test_console.c — console/console.h: which paths are the console's, the
 * built-in files with their types and ETags (304 on a match), 301, 404 and
 * 405, and Chart.js read from its directory, only the files it names. */
#include "console/console.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "console/console_assets.h"
#include "unit.h"

static void lookup(const char *path, const char *inm, struct console_file *f)
{
    console_lookup(path, true, inm, f);
}

static void release(struct console_file *f)
{
    if (f->owned)
        free((void *)f->body);
}

TEST(paths)
{
    CHECK(console_path("/console"));
    CHECK(console_path("/console/"));
    CHECK(console_path("/console/js/app.js"));
    CHECK(!console_path("/consoles"));
    CHECK(!console_path("/api/console/"));
    CHECK(!console_path("/"));
}

TEST(index_and_assets)
{
    struct console_file f;
    lookup("/console/", NULL, &f);
    CHECK_INT(f.status, 200);
    CHECK_STR(f.type, "text/html; charset=utf-8");
    CHECK(f.len > 0 && memmem(f.body, f.len, "js/app.js", 9) != NULL);
    CHECK(f.etag[0] == '"');
    lookup("/console/js/app.js", NULL, &f);
    CHECK_INT(f.status, 200);
    CHECK_STR(f.type, "text/javascript; charset=utf-8");
    lookup("/console/css/console.css", NULL, &f);
    CHECK_STR(f.type, "text/css; charset=utf-8");
    lookup("/console/favicon.svg", NULL, &f);
    CHECK_STR(f.type, "image/svg+xml");
    CHECK(!f.owned);
    /* every built-in file is found under its own path */
    for (int i = 0; i < console_assets_count; i++) {
        char path[256];
        snprintf(path, sizeof path, "/console/%s", console_assets[i].path);
        lookup(path, NULL, &f);
        CHECK_INT(f.status, 200);
        CHECK_INT(f.len, console_assets[i].len);
    }
}

TEST(etag_revalidation)
{
    struct console_file f, g;
    lookup("/console/js/api.js", NULL, &f);
    lookup("/console/js/api.js", f.etag, &g);
    CHECK_INT(g.status, 304);
    CHECK_INT(g.len, 0);
    lookup("/console/js/api.js", "\"0000000000000000\"", &g);
    CHECK_INT(g.status, 200);
    lookup("/console/js/api.js", "*", &g);
    CHECK_INT(g.status, 304);
    /* another file's tag is not this one's */
    lookup("/console/js/dom.js", f.etag, &g);
    CHECK_INT(g.status, 200);
}

TEST(redirect_missing_and_method)
{
    struct console_file f;
    lookup("/console", NULL, &f);
    CHECK_INT(f.status, 301);
    CHECK_STR(f.location, "/console/");
    lookup("/console/nothing.js", NULL, &f);
    CHECK_INT(f.status, 404);
    lookup("/console/../src/console/console.c", NULL, &f);
    CHECK_INT(f.status, 404);
    lookup("/console/js/../index.html", NULL, &f);
    CHECK_INT(f.status, 404);
    console_lookup("/console/", false, NULL, &f);
    CHECK_INT(f.status, 405);
}

TEST(chartjs_from_its_directory)
{
    char dir[] = "/tmp/parapet-console-XXXXXX", path[128];
    CHECK(mkdtemp(dir) != NULL);
    CHECK_INT(console_configure(dir), -1); /* missing: said, not fatal */
    struct console_file f;
    lookup("/console/lib/chart.js/chart.esm.js", NULL, &f);
    CHECK_INT(f.status, 404);
    snprintf(path, sizeof path, "%s/chunks", dir);
    CHECK_INT(mkdir(path, 0700), 0);
    const char *files[] = {"chart.esm.js", "chunks/helpers.segment.js", "secret.txt"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        FILE *o = fopen(path, "w");
        CHECK(o != NULL);
        fprintf(o, "export const file = %d;\n", i);
        fclose(o);
    }
    CHECK_INT(console_configure(dir), 0);
    lookup("/console/lib/chart.js/chart.esm.js", NULL, &f);
    CHECK_INT(f.status, 200);
    CHECK_STR(f.type, "text/javascript; charset=utf-8");
    CHECK(f.owned && f.len == 23 && memcmp(f.body, "export const file = 0;\n", 23) == 0);
    char etag[64];
    snprintf(etag, sizeof etag, "%s", f.etag);
    release(&f);
    lookup("/console/lib/chart.js/chart.esm.js", etag, &f);
    CHECK_INT(f.status, 304);
    CHECK(!f.owned);
    lookup("/console/lib/chart.js/chunks/helpers.segment.js", NULL, &f);
    CHECK_INT(f.status, 200);
    release(&f);
    /* nothing else of the directory, however named */
    lookup("/console/lib/chart.js/secret.txt", NULL, &f);
    CHECK_INT(f.status, 404);
    lookup("/console/lib/chart.js/../chart.js/secret.txt", NULL, &f);
    CHECK_INT(f.status, 404);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/chunks", dir);
    rmdir(path);
    rmdir(dir);
    console_configure(NULL);
}

UNIT_MAIN(UNIT_CASE(paths), UNIT_CASE(index_and_assets), UNIT_CASE(etag_revalidation),
          UNIT_CASE(redirect_missing_and_method), UNIT_CASE(chartjs_from_its_directory))
