/* simulate.c — `parapet simulate --data DIR --seed N [--days D] [--rate R]
 * [--waf-rate W] [--end T] [--out FILE|-] [--ingest]`: simulated telemetry
 * of the store's sites (src/telemetry/simulate.h), as NDJSON or straight
 * into the store. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "telemetry/sim_ingest.h"
#include "telemetry/sim_sites.h"

static const struct opt opts[] = {{.name = "data"},   {.name = "seed"}, {.name = "days"},
                                  {.name = "rate"},   {.name = "waf-rate"}, {.name = "end"},
                                  {.name = "out"},    {.name = "ingest", .flag = true}, {.name = NULL}};

static int number(json_t *a, const char *name, double dflt, double min, double max, double *out)
{
    const char *v = arg_str(a, name);
    char *end;
    if (!v) {
        *out = dflt;
        return 0;
    }
    errno = 0;
    *out = strtod(v, &end);
    if (errno || end == v || *end || *out < min || *out > max) {
        fprintf(stderr, "parapet: --%s must be a number from %g to %g\n", name, min, max);
        return -1;
    }
    return 0;
}

static int write_line(void *arg, const char *line, size_t len)
{
    FILE *f = arg;
    return fwrite(line, 1, len, f) != len || putc('\n', f) == EOF ? -1 : 0;
}

static int run(struct store *s, const struct sim_params *p, const char *out_path, bool ingest)
{
    struct sim_site *sites;
    size_t n;
    struct sim_counts c = {0};
    if (sim_sites_load(s, &sites, &n) != 0) {
        fprintf(stderr, "parapet: the store is not available\n");
        return 1;
    }
    int rc;
    if (ingest) {
        struct tel_ingest_result res;
        char msg[TEL_MSG_BUF];
        rc = sim_ingest(s, sites, n, p, (int64_t)time(NULL), &res, &c, msg, sizeof msg);
        if (rc)
            fprintf(stderr, "parapet: %s\n", rc > 0 ? msg : "the records could not be stored");
        else
            fprintf(stderr, "stored %ld of %ld records (%ld duplicates)\n", res.stored, res.records, res.duplicates);
    } else {
        FILE *f = !out_path || !strcmp(out_path, "-") ? stdout : fopen(out_path, "w");
        if (!f) {
            fprintf(stderr, "parapet: %s: %s\n", out_path, strerror(errno));
            sim_sites_free(sites, n);
            return 1;
        }
        rc = sim_generate(sites, n, p, write_line, f, &c);
        if (fflush(f) != 0 || (f != stdout && fclose(f) != 0) || rc) {
            fprintf(stderr, "parapet: could not write the records\n");
            rc = -1;
        }
    }
    fprintf(stderr, "%zu sites: %ld flow, %ld ddos_event, %ld flow_down, %ld bandwidth, %ld waf_log\n", n, c.flow,
            c.ddos_event, c.flow_down, c.bandwidth, c.waf_log);
    sim_sites_free(sites, n);
    return rc > 0 ? 2 : rc ? 1 : 0;
}

int cli_simulate(int argc, char **argv)
{
    json_t *a = args_parse(argc, argv, opts);
    if (!a)
        return 2;
    double seed, days, rate, waf_rate, end;
    int64_t now = (int64_t)time(NULL);
    struct store *s = NULL;
    int rc = 2;
    if (!arg_required(a, "seed") || number(a, "seed", 0, 0, 9007199254740992.0, &seed) ||
        number(a, "days", 30, 0, 3660, &days) || number(a, "rate", 10, 0, 1e7, &rate) ||
        number(a, "waf-rate", rate / 10, 0, 1e7, &waf_rate) ||
        number(a, "end", (double)(now - now % 3600), 946684800, 4102444800.0, &end))
        goto done;
    struct sim_params p = {.seed = (uint64_t)seed, .days = (int)days, .rate = rate, .waf_rate = waf_rate,
                           .end = (int64_t)end};
    const char *dir = arg_str(a, "data");
    if (!(s = cli_open_store_sized(dir ? dir : "./parapet-data", CLI_BULK_CACHE_KB))) {
        rc = 1;
        goto done;
    }
    rc = run(s, &p, arg_str(a, "out"), arg_flag(a, "ingest"));
done:
    if (s)
        s->ops->close(s);
    json_decref(a);
    return rc;
}
