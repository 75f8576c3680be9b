/* geo.c — see geo.h. The databases are opened once, into memory (GeoIP's
 * lookups on a memory-cached database only read it, so threads share it).
 * PARAPET_GEOIP_DIR overrides /usr/share/GeoIP (tests use it to run
 * without the data). */
#include "telemetry/geo.h"

#include <GeoIP.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static GeoIP *v4, *v6;

static GeoIP *open_db(const char *dir, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (access(path, R_OK) != 0)
        return NULL;
    return GeoIP_open(path, GEOIP_MEMORY_CACHE | GEOIP_SILENCE);
}

static void open_dbs(void)
{
    const char *dir = getenv("PARAPET_GEOIP_DIR");
    if (!dir)
        dir = "/usr/share/GeoIP";
    v4 = open_db(dir, "GeoIP.dat");
    v6 = open_db(dir, "GeoIPv6.dat");
}

void geo_country(const struct ip_addr *a, char cc[3])
{
    cc[0] = '\0';
    pthread_once(&once, open_dbs);
    const char *code = NULL;
    if (a->family == NET_V4 && v4) {
        unsigned long n = ((unsigned long)a->b[0] << 24) | ((unsigned long)a->b[1] << 16) |
                          ((unsigned long)a->b[2] << 8) | a->b[3];
        code = GeoIP_country_code_by_ipnum(v4, n);
    } else if (a->family == NET_V6 && v6) {
        geoipv6_t n;
        memcpy(&n, a->b, 16);
        code = GeoIP_country_code_by_ipnum_v6(v6, n);
    }
    /* GeoLite's pseudo-codes (A1 anonymous proxy, EU, AP...) are kept: they
     * are what the data says */
    if (code && strlen(code) == 2)
        memcpy(cc, code, 3);
}
