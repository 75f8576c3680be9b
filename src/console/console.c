/* console.c — see console.h. */
#include "console/console.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "console/console_assets.h"

#define PREFIX "/console/"
#define CHART_PREFIX PREFIX "lib/chart.js/"

static char chartjs_dir[512] = CONSOLE_CHARTJS_DIR;

/* The files of libjs-chart.js the console imports: its ES module and the
 * chunk that module imports. Only these are served from the directory. */
static const char *const chart_files[] = {"chart.esm.js", "chunks/helpers.segment.js"};

int console_configure(const char *dir)
{
    snprintf(chartjs_dir, sizeof chartjs_dir, "%s", dir ? dir : CONSOLE_CHARTJS_DIR);
    char path[600];
    for (size_t i = 0; i < sizeof chart_files / sizeof *chart_files; i++) {
        snprintf(path, sizeof path, "%s/%s", chartjs_dir, chart_files[i]);
        if (access(path, R_OK) != 0) {
            fprintf(stderr,
                    "parapet: console: %s is missing: the console at /console/ shows its numbers in tables "
                    "but draws no charts (install Debian's libjs-chart.js, or give --console-chartjs DIR)\n",
                    path);
            return -1;
        }
    }
    return 0;
}

bool console_path(const char *path)
{
    return strcmp(path, "/console") == 0 || strncmp(path, PREFIX, strlen(PREFIX)) == 0;
}

static const char *type_of(const char *name)
{
    static const struct {
        const char *ext, *type;
    } types[] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},   {".svg", "image/svg+xml"},
        {".png", "image/png"},                 {".json", "application/json"},
    };
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof *types; i++)
        if (strcmp(dot, types[i].ext) == 0)
            return types[i].type;
    return "application/octet-stream";
}

static void message(struct console_file *out, int status, const char *text)
{
    out->status = status;
    out->type = "text/plain; charset=utf-8";
    out->body = text;
    out->len = strlen(text);
}

static bool matches(const char *if_none_match, const char *etag)
{
    return if_none_match && etag[0] && (strcmp(if_none_match, "*") == 0 || strstr(if_none_match, etag));
}

/* A file of libjs-chart.js, read at each request (ETag: size and mtime,
 * so that a package upgrade is picked up). */
static void chart_file(const char *name, const char *if_none_match, struct console_file *out)
{
    bool known = false;
    for (size_t i = 0; i < sizeof chart_files / sizeof *chart_files; i++)
        known = known || strcmp(name, chart_files[i]) == 0;
    if (!known)
        return message(out, 404, "not found: the console serves chart.esm.js of libjs-chart.js only\n");
    char path[600];
    snprintf(path, sizeof path, "%s/%s", chartjs_dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (64 << 20)) {
        if (fd >= 0)
            close(fd);
        return message(out, 404,
                       "not found: Chart.js is not installed on this server (Debian package libjs-chart.js)\n");
    }
    snprintf(out->etag, sizeof out->etag, "\"cjs-%llx-%llx\"", (unsigned long long)st.st_size,
             (unsigned long long)st.st_mtime);
    out->type = type_of(name);
    if (matches(if_none_match, out->etag)) {
        close(fd);
        out->status = 304;
        return;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (buf && got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (!buf || got != (size_t)st.st_size) {
        free(buf);
        out->etag[0] = '\0';
        return message(out, 404, "not found: Chart.js could not be read on this server\n");
    }
    out->status = 200;
    out->body = buf;
    out->len = got;
    out->owned = true;
}

void console_lookup(const char *path, bool is_get_or_head, const char *if_none_match, struct console_file *out)
{
    memset(out, 0, sizeof *out);
    if (!is_get_or_head)
        return message(out, 405, "the console's files are read with GET or HEAD\n");
    if (strcmp(path, "/console") == 0) {
        out->location = PREFIX;
        return message(out, 301, "the console is at /console/\n");
    }
    const char *name = path + strlen(PREFIX);
    if (strncmp(path, CHART_PREFIX, strlen(CHART_PREFIX)) == 0)
        return chart_file(path + strlen(CHART_PREFIX), if_none_match, out);
    if (!*name)
        name = "index.html";
    for (int i = 0; i < console_assets_count; i++) {
        const struct console_asset *a = &console_assets[i];
        if (strcmp(a->path, name) != 0)
            continue;
        snprintf(out->etag, sizeof out->etag, "%s", a->etag);
        out->type = type_of(name);
        if (matches(if_none_match, out->etag)) {
            out->status = 304;
            return;
        }
        out->status = 200;
        out->body = a->data;
        out->len = a->len;
        return;
    }
    message(out, 404, "not found: no such file in the console\n");
}
