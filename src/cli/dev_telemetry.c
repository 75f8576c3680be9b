/* dev_telemetry.c — `serve --dev`: a month of simulated telemetry
 * (src/telemetry/simulate.h) for the dev data set's sites, so that every
 * dashboard shows data. Seeded once: the credentials file records it. */
#include <stdio.h>
#include <time.h>

#include "cli/cli.h"
#include "telemetry/sim_ingest.h"
#include "telemetry/sim_sites.h"

/* Modest: about 0.1 M records in all (half of them the AP site's bandwidth
 * minutes), stored in two seconds. */
#define DEV_SIM_SEED 1
#define DEV_SIM_DAYS 30
#define DEV_SIM_RATE 0.02
#define DEV_SIM_WAF_RATE 0.004

int dev_telemetry_seed(const char *data_dir, json_t *creds)
{
    if (json_object_get(creds, "telemetry"))
        return 0;
    struct store *s = cli_open_store(data_dir);
    if (!s)
        return -1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int64_t now = (int64_t)time(NULL);
    struct sim_params p = {.seed = DEV_SIM_SEED, .days = DEV_SIM_DAYS, .rate = DEV_SIM_RATE,
                           .waf_rate = DEV_SIM_WAF_RATE, .end = now - now % 3600};
    struct sim_site *sites;
    size_t n;
    struct tel_ingest_result res = {0};
    char msg[TEL_MSG_BUF] = "the store is not available";
    int rc = sim_sites_load(s, &sites, &n);
    if (rc == 0) {
        rc = sim_ingest(s, sites, n, &p, now, &res, NULL, msg, sizeof msg);
        sim_sites_free(sites, n);
    }
    s->ops->close(s);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc) {
        fprintf(stderr, "parapet: --dev: simulated telemetry not stored: %s\n",
                rc > 0 ? msg : "the store failed");
        return -1;
    }
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    fprintf(stderr, "parapet: --dev: %ld simulated telemetry records (%d days, parapet simulate --seed %d) in %.1f s\n",
            res.stored, DEV_SIM_DAYS, DEV_SIM_SEED, secs);
    json_object_set_new(creds, "telemetry",
                        json_pack("{s:i,s:i,s:I,s:I}", "seed", DEV_SIM_SEED, "days", DEV_SIM_DAYS, "end",
                                  (json_int_t)p.end, "records", (json_int_t)res.stored));
    return 1;
}
