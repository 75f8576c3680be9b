/* test_errors.c — the error catalogue (core/errors.def) is well formed and
 * docs/errors.md lists exactly its codes with the same HTTP statuses.
 *
 * docs/errors.md is found through $PARAPET_ROOT if set, else by searching
 * upwards from the current directory, then from the test binary's own
 * directory (build/<variant>/tests/), so the test runs from anywhere. */
#include "core/errors.h"

#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"

static const struct {
    const char *name;
    long code;
    int status;
    const char *meaning;
} cat[] = {
#define ERR(name, code, status, meaning) {#name, code, status, meaning},
#include "core/errors.def"
#undef ERR
};
enum { NCAT = sizeof cat / sizeof cat[0] };

/* Opens <dir>/docs/errors.md for dir and each of its parents. */
static FILE *open_upwards(const char *start)
{
    char dir[PATH_MAX], path[PATH_MAX + 32];
    if (!start || strlen(start) >= sizeof dir)
        return NULL;
    strcpy(dir, start);
    for (;;) {
        snprintf(path, sizeof path, "%s/docs/errors.md", dir);
        FILE *f = fopen(path, "r");
        if (f || strcmp(dir, "/") == 0 || strcmp(dir, ".") == 0)
            return f;
        strcpy(dir, dirname(dir));
    }
}

static FILE *open_errors_md(void)
{
    char buf[PATH_MAX];
    FILE *f = open_upwards(getenv("PARAPET_ROOT"));
    if (!f && getcwd(buf, sizeof buf))
        f = open_upwards(buf);
    ssize_t n;
    if (!f && (n = readlink("/proc/self/exe", buf, sizeof buf - 1)) > 0) {
        buf[n] = '\0';
        f = open_upwards(dirname(buf));
    }
    return f;
}

/* The rows of the markdown table: "| <code> | <status> | meaning |". */
static struct {
    long code;
    int status;
} doc[128];
static int ndoc = -1;

static void load_doc(void)
{
    if (ndoc >= 0)
        return;
    ndoc = 0;
    FILE *f = open_errors_md();
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f) && ndoc < (int)(sizeof doc / sizeof doc[0])) {
        long code;
        int status;
        if (sscanf(line, "| %ld | %d |", &code, &status) == 2) {
            doc[ndoc].code = code;
            doc[ndoc].status = status;
            ndoc++;
        }
    }
    fclose(f);
}

TEST(doc_found)
{
    load_doc();
    CHECK(ndoc > 0);
    if (ndoc == 0)
        fprintf(stderr, "  docs/errors.md not found or has no table (set PARAPET_ROOT)\n");
}

TEST(every_code_documented_with_its_status)
{
    load_doc();
    for (int i = 0; i < NCAT; i++) {
        int found = 0;
        for (int k = 0; k < ndoc; k++) {
            if (doc[k].code != cat[i].code)
                continue;
            found++;
            if (doc[k].status != cat[i].status) {
                fprintf(stderr, "  %s: docs say HTTP %d, errors.def %d\n", cat[i].name, doc[k].status,
                        cat[i].status);
                CHECK(0);
            }
        }
        if (found != 1) {
            fprintf(stderr, "  %s (%ld) is listed %d times in docs/errors.md\n", cat[i].name, cat[i].code,
                    found);
            CHECK(0);
        }
    }
}

TEST(no_undocumented_extras)
{
    load_doc();
    CHECK_INT(ndoc, NCAT);
    for (int k = 0; k < ndoc; k++) {
        bool known = false;
        for (int i = 0; i < NCAT && !known; i++)
            known = cat[i].code == doc[k].code;
        if (!known) {
            fprintf(stderr, "  docs/errors.md lists %ld, which errors.def does not have\n", doc[k].code);
            CHECK(0);
        }
    }
}

TEST(code_shape)
{
    CHECK_INT(cat[0].code, 0);
    CHECK_INT(cat[0].status, 200);
    CHECK_STR(cat[0].name, "E_OK");
    for (int i = 1; i < NCAT; i++) {
        long c = cat[i].code;
        if (c < 10000000 || c > 99999999 || c / 100000 != cat[i].status || c % 100000 == 0 ||
            cat[i].status < 400 || cat[i].status > 599) {
            fprintf(stderr, "  %s: code %ld does not fit status %d\n", cat[i].name, c, cat[i].status);
            CHECK(0);
        }
    }
}

TEST(codes_unique_and_ascending)
{
    for (int i = 0; i < NCAT; i++)
        for (int k = i + 1; k < NCAT; k++)
            if (cat[i].code == cat[k].code) {
                fprintf(stderr, "  %s and %s share %ld\n", cat[i].name, cat[k].name, cat[i].code);
                CHECK(0);
            }
    /* new codes go at the end of their status group, so the file stays sorted */
    for (int i = 1; i < NCAT; i++)
        CHECK(cat[i].code > cat[i - 1].code);
}

TEST(lookups_match_catalogue)
{
    CHECK_INT(E__COUNT, NCAT);
    for (int i = 0; i < NCAT; i++) {
        CHECK_INT(err_code((enum err)i), cat[i].code);
        CHECK_INT(err_status((enum err)i), cat[i].status);
        CHECK_STR(err_meaning((enum err)i), cat[i].meaning);
    }
    CHECK_INT(err_code(E_FIELD_MISSING), 40000003);
    CHECK_INT(err_status(E_NOT_FOUND), 404);
    CHECK_INT(err_status(E_METHOD), 405);
}

UNIT_MAIN(UNIT_CASE(doc_found), UNIT_CASE(every_code_documented_with_its_status),
          UNIT_CASE(no_undocumented_extras), UNIT_CASE(code_shape), UNIT_CASE(codes_unique_and_ascending),
          UNIT_CASE(lookups_match_catalogue))
