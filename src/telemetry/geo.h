/* geo.h — the source country of an address, from Debian's geoip-database
 * (GeoLite country data) when it is installed. Only the country: city,
 * coordinates and organisation need an operator's MaxMind databases. */
#ifndef PARAPET_TEL_GEO_H
#define PARAPET_TEL_GEO_H

#include <stdbool.h>

#include "base/net.h"

/* The ISO 3166 alpha-2 code of a's country into cc[3]; "" when unknown or
 * when no database is installed. Thread-safe. */
void geo_country(const struct ip_addr *a, char cc[3]);

/* What an operator's MaxMind databases (GeoLite2/GeoIP2 City and ASN, .mmdb)
 * tell of an address; empty members (0, "") when they are not configured
 * or do not know. */
struct geo_place {
    char city[96];
    double latitude, longitude;
    bool located;   /* latitude/longitude are known */
    char org[128];  /* autonomous_system_organization */
    long long asn;  /* autonomous_system_number */
};

/* Opens the databases once, before any lookup (serve --geoip-city,
 * --geoip-asn); NULL paths are skipped. -1 when a given file cannot be
 * opened (a message on stderr). */
int geo_configure(const char *city_mmdb, const char *asn_mmdb);
void geo_locate(const struct ip_addr *a, struct geo_place *out);

#endif
