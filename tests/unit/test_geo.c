/* test_geo.c — telemetry/geo.h: the country from Debian's GeoLite data,
 * and city, coordinates and organisation from MaxMind databases that
 * tests/data/make-mmdb.pl writes. */
#include "telemetry/geo.h"

#include <stdio.h>
#include <stdlib.h>

#include "unit.h"

static struct ip_addr addr(const char *text)
{
    struct ip_addr a;
    if (ip_parse(text, &a) != 0)
        abort();
    return a;
}

TEST(country_from_geolite)
{
    char cc[3];
    struct ip_addr a = addr("8.8.8.8");
    geo_country(&a, cc);
    CHECK_STR(cc, "US");
    a = addr("192.0.2.1"); /* documentation space: no country */
    geo_country(&a, cc);
    CHECK_STR(cc, "");
}

TEST(city_and_organisation)
{
    char dir[] = "/tmp/parapet-geo-XXXXXX", cmd[256], city[300], asn[300];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(cmd, sizeof cmd, "perl tests/data/make-mmdb.pl %s", dir);
    CHECK(system(cmd) == 0);
    snprintf(city, sizeof city, "%s/city.mmdb", dir);
    snprintf(asn, sizeof asn, "%s/asn.mmdb", dir);
    CHECK(geo_configure(city, asn) == 0);
    struct geo_place p;
    struct ip_addr a = addr("198.51.100.7");
    geo_locate(&a, &p);
    CHECK_STR(p.city, "Amsterdam");
    CHECK(p.located && p.latitude > 52.36 && p.latitude < 52.38 && p.longitude > 4.88 && p.longitude < 4.9);
    CHECK_STR(p.org, "Example Transit");
    CHECK_INT(p.asn, 64511);
    a = addr("2001:db8:beef::1");
    geo_locate(&a, &p);
    CHECK_STR(p.city, "Berlin");
    CHECK_STR(p.org, "");
    a = addr("203.0.113.1");
    geo_locate(&a, &p);
    CHECK(!p.located && p.city[0] == '\0' && p.asn == 0);
    CHECK(geo_configure("/nonexistent.mmdb", NULL) == -1);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

UNIT_MAIN(UNIT_CASE(country_from_geolite), UNIT_CASE(city_and_organisation))
