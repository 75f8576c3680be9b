/* main.c — the HTTPS test runner: `test-http PARAPET_BINARY CASES_DIR`.
 * Sets up the fixture, runs the special tests (special.c) and every case
 * file under CASES_DIR (sorted), stops the servers, and ends with
 * "http: N passed, N failed". */
#include <curl/curl.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/cases.h"
#include "http/fixture.h"
#include "http/harness.h"
#include "http/special.h"

static int passed, failed;

static void record(const char *name, int rc)
{
    if (rc == 0) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "FAIL %s\n", name);
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects *.case files under dir (recursively), sorted. */
static void collect(const char *dir, char ***list, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = strlen(e->d_name);
        if (e->d_type == DT_DIR) {
            collect(path, list, n);
        } else if (len > 5 && !strcmp(e->d_name + len - 5, ".case")) {
            *list = realloc(*list, (*n + 1) * sizeof **list);
            (*list)[(*n)++] = strdup(path);
        }
    }
    closedir(d);
}

/* FILTER: substrings separated by '|'; a test runs when its name holds one. */
static bool wanted(const char *name, const char *filter)
{
    if (!filter)
        return true;
    for (const char *p = filter;;) {
        size_t n = strcspn(p, "|");
        char part[256];
        snprintf(part, sizeof part, "%.*s", (int)n, p);
        if (n && strstr(name, part))
            return true;
        if (!p[n])
            return false;
        p += n + 1;
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test-http PARAPET_BINARY CASES_DIR [FILTER[|FILTER]...]\n");
        return 2;
    }
    const char *filter = argc > 3 ? argv[3] : NULL;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    struct fixture fx;
    if (fixture_setup(&fx, argv[1]) != 0) {
        fprintf(stderr, "setup failed (server log: %s)\n", fx.log);
        fixture_teardown(&fx);
        printf("http: 0 passed, 1 failed\n");
        return 1;
    }
    for (const struct special_test *t = special_tests; t->name; t++) {
        if (!wanted(t->name, filter))
            continue;
        if (t->postgresql_only && !getenv("PARAPET_PG_CLUSTER")) {
            printf("    skipped on SQLite: %s\n", t->name);
            fflush(stdout); /* before any test forks: a child would print it again */
            continue;
        }
        if (t->sqlite_only && getenv("PARAPET_STORE")) {
            printf("    skipped on PostgreSQL: %s: %s\n", t->name, t->sqlite_only);
            fflush(stdout);
            continue;
        }
        checks_failed_in_case = 0;
        record(t->name, t->run(&fx));
    }
    char **cases = NULL;
    size_t n = 0;
    collect(argv[2], &cases, &n);
    qsort(cases, n, sizeof *cases, by_name);
    for (size_t i = 0; i < n; i++) {
        if (wanted(cases[i], filter))
            record(cases[i], case_run(cases[i], fx.ca_file));
        free(cases[i]);
    }
    free(cases);
    http_reset_connection();
    int stop_failures = fixture_teardown(&fx);
    record("servers stop cleanly on SIGTERM", stop_failures);
    curl_global_cleanup();
    printf("http: %d passed, %d failed\n", passed, failed);
    if (!failed) { /* keep the data and server log of a failed run */
        char cmd[320];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx.data);
        (void)!system(cmd);
    }
    return failed ? 1 : 0;
}
