/* geo.h — the source country of an address, from Debian's geoip-database
 * (GeoLite country data) when it is installed. Only the country: city,
 * coordinates and organisation need an operator's MaxMind databases. */
#ifndef PARAPET_TEL_GEO_H
#define PARAPET_TEL_GEO_H

#include "core/net.h"

/* The ISO 3166 alpha-2 code of a's country into cc[3]; "" when unknown or
 * when no database is installed. Thread-safe. */
void geo_country(const struct ip_addr *a, char cc[3]);

#endif
