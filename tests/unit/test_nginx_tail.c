/* test_nginx_tail.c — following the audit log across restarts, rotation by
 * rename and truncation in place (dataplane/nginx/waf_tail.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataplane/nginx/waf_tail.h"
#include "unit/unit.h"

static char dir[] = "/tmp/parapet-tail-XXXXXX";
static char logp[256], statep[256], seen[4096];

static int collect(const char *line, size_t len, void *arg)
{
    (void)arg;
    strncat(seen, line, len);
    strcat(seen, "|");
    return 0;
}

static void append(const char *path, const char *text)
{
    FILE *f = fopen(path, "a");
    fputs(text, f);
    fclose(f);
}

static const char *read_all(struct waf_tail *t, long max)
{
    seen[0] = '\0';
    waf_tail_read(t, max, collect, NULL);
    return seen;
}

TEST(follow)
{
    CHECK(mkdtemp(dir) != NULL);
    snprintf(logp, sizeof logp, "%s/audit.json", dir);
    snprintf(statep, sizeof statep, "%s/place", dir);
    struct waf_tail t;
    waf_tail_init(&t, logp, statep);
    CHECK_STR(read_all(&t, 100), ""); /* no log yet */
    append(logp, "a\nb\nhalf");
    CHECK_STR(read_all(&t, 100), "a|b|");      /* a partial line waits */
    append(logp, "-line\nc\n");
    CHECK_STR(read_all(&t, 1), "half-line|"); /* at most max lines */
    CHECK_STR(read_all(&t, 100), "c|");
    CHECK(waf_tail_commit(&t) == 0);
    append(logp, "d\n");
    CHECK_STR(read_all(&t, 100), "d|"); /* read, but not committed */
    waf_tail_close(&t);

    /* a restart resumes at the committed place: d again */
    waf_tail_init(&t, logp, statep);
    CHECK_STR(read_all(&t, 100), "d|");
    CHECK(waf_tail_commit(&t) == 0);

    /* rotation by rename: the old file's rest, then the new file */
    append(logp, "e\n");
    char old[300];
    snprintf(old, sizeof old, "%s.1", logp);
    CHECK(rename(logp, old) == 0);
    append(old, "f\n"); /* nginx writes on until it reopens */
    append(logp, "g, a longer line\n");
    CHECK_STR(read_all(&t, 100), "e|f|g, a longer line|");
    CHECK(waf_tail_commit(&t) == 0);

    /* truncation in place (seen while the file is shorter than the place): from the start */
    FILE *f = fopen(logp, "w");
    fclose(f);
    append(logp, "h\n");
    CHECK_STR(read_all(&t, 100), "h|");
    CHECK(waf_tail_commit(&t) == 0);
    waf_tail_close(&t);

    /* a place saved for another file (rotated while stopped): from the start */
    CHECK(rename(logp, old) == 0);
    append(logp, "i\n");
    waf_tail_init(&t, logp, statep);
    CHECK_STR(read_all(&t, 100), "i|");
    waf_tail_close(&t);
    unlink(old);
    unlink(logp);
    unlink(statep);
    rmdir(dir);
}

UNIT_MAIN(UNIT_CASE(follow))
