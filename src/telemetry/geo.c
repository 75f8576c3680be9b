/* geo.c — see geo.h. The databases are opened once, into memory (GeoIP's
 * lookups on a memory-cached database only read it, so threads share it).
 * PARAPET_GEOIP_DIR overrides /usr/share/GeoIP (tests use it to run
 * without the data). MaxMind databases are read through libmaxminddb,
 * memory-mapped and read-only after geo_configure: threads share them. */
#include "telemetry/geo.h"

#include <GeoIP.h>
#include <maxminddb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static GeoIP *geoip_v4, *geoip_v6;

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
    geoip_v4 = open_db(dir, "GeoIP.dat");
    geoip_v6 = open_db(dir, "GeoIPv6.dat");
}

void geo_country(const struct ip_addr *a, char cc[3])
{
    cc[0] = '\0';
    pthread_once(&once, open_dbs);
    const char *code = NULL;
    if (a->family == NET_V4 && geoip_v4) {
        unsigned long n = ((unsigned long)a->b[0] << 24) | ((unsigned long)a->b[1] << 16) |
                          ((unsigned long)a->b[2] << 8) | a->b[3];
        code = GeoIP_country_code_by_ipnum(geoip_v4, n);
    } else if (a->family == NET_V6 && geoip_v6) {
        geoipv6_t n;
        memcpy(&n, a->b, 16);
        code = GeoIP_country_code_by_ipnum_v6(geoip_v6, n);
    }
    /* GeoLite's pseudo-codes (A1 anonymous proxy, EU, AP...) are kept: they
     * are what the data says */
    if (code && strlen(code) == 2)
        memcpy(cc, code, 3);
}

static MMDB_s city_db, asn_db;
static bool have_city, have_asn;

static int open_mmdb(const char *path, MMDB_s *db, bool *have)
{
    if (!path)
        return 0;
    MMDB_s opened;
    int rc = MMDB_open(path, MMDB_MODE_MMAP, &opened);
    if (rc != MMDB_SUCCESS) {
        fprintf(stderr, "parapet: %s: %s\n", path, MMDB_strerror(rc));
        return -1;
    }
    /* configuring again replaces the database (and frees the one before) */
    if (*have)
        MMDB_close(db);
    *db = opened;
    *have = true;
    return 0;
}

int geo_configure(const char *city_mmdb, const char *asn_mmdb)
{
    return open_mmdb(city_mmdb, &city_db, &have_city) == 0 && open_mmdb(asn_mmdb, &asn_db, &have_asn) == 0 ? 0
                                                                                                         : -1;
}

static bool lookup(MMDB_s *db, const struct ip_addr *a, MMDB_lookup_result_s *res)
{
    struct sockaddr_in v4 = {.sin_family = AF_INET};
    struct sockaddr_in6 v6 = {.sin6_family = AF_INET6};
    const struct sockaddr *sa;
    if (a->family == NET_V4) {
        memcpy(&v4.sin_addr, a->b, 4);
        sa = (const struct sockaddr *)&v4;
    } else {
        memcpy(&v6.sin6_addr, a->b, 16);
        sa = (const struct sockaddr *)&v6;
    }
    int err = 0;
    *res = MMDB_lookup_sockaddr(db, sa, &err);
    return err == MMDB_SUCCESS && res->found_entry;
}

static void copy_utf8(MMDB_entry_data_s *d, char *out, size_t size)
{
    if (d->has_data && d->type == MMDB_DATA_TYPE_UTF8_STRING)
        snprintf(out, size, "%.*s", (int)d->data_size, d->utf8_string);
}

void geo_locate(const struct ip_addr *a, struct geo_place *out)
{
    memset(out, 0, sizeof *out);
    MMDB_lookup_result_s res;
    MMDB_entry_data_s d;
    if (have_city && lookup(&city_db, a, &res)) {
        if (MMDB_get_value(&res.entry, &d, "city", "names", "en", NULL) == MMDB_SUCCESS)
            copy_utf8(&d, out->city, sizeof out->city);
        MMDB_entry_data_s lat, lon;
        if (MMDB_get_value(&res.entry, &lat, "location", "latitude", NULL) == MMDB_SUCCESS &&
            MMDB_get_value(&res.entry, &lon, "location", "longitude", NULL) == MMDB_SUCCESS && lat.has_data &&
            lon.has_data && lat.type == MMDB_DATA_TYPE_DOUBLE && lon.type == MMDB_DATA_TYPE_DOUBLE) {
            out->latitude = lat.double_value;
            out->longitude = lon.double_value;
            out->located = true;
        }
    }
    if (have_asn && lookup(&asn_db, a, &res)) {
        if (MMDB_get_value(&res.entry, &d, "autonomous_system_organization", NULL) == MMDB_SUCCESS)
            copy_utf8(&d, out->org, sizeof out->org);
        if (MMDB_get_value(&res.entry, &d, "autonomous_system_number", NULL) == MMDB_SUCCESS && d.has_data &&
            d.type == MMDB_DATA_TYPE_UINT32)
            out->asn = d.uint32;
    }
}
