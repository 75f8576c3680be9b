/* members.c — see members.h. The names are found through a small
 * open-addressing table built once (FNV-1a of the name). */
#include "telemetry/members.h"

#include <pthread.h>
#include <string.h>

static const char *const names[TEL_MEMBERS] = {
    "kind", "alert_id", "attack_type", "site_ip", "site_id", "start_time", "end_time", "max_bps", "max_pps",
    "severity", "profile_name", "profile_desc", "p_type", "flow_id", "time", "router", "src_ip", "dst_ip",
    "src_port", "dst_port", "protocol", "bytes", "packets", "sampling_rate", "src_as", "src_country", "app",
    "action", "policy_type", "_id", "timestamp", "domain_port_id", "domain", "domain_id", "src_ip_cc", "host",
    "http_method", "http_path", "http_x_forwarded_for_as", "http_x_forwarded_for_lat", "location",
    "match_content", "match_post", "pattern", "rule_id", "src_ip_city", "router_name", "node", "raw_in",
    "raw_out", "clean_in", "clean_out"};

enum { SLOTS = 256 }; /* a power of two, well above TEL_MEMBERS */

static signed char slots[SLOTS]; /* id + 1; 0 empty */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static unsigned hash(const char *key, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)key[i]) * 16777619u;
    return h;
}

static void build(void)
{
    for (int id = 0; id < TEL_MEMBERS; id++) {
        unsigned at = hash(names[id], strlen(names[id])) & (SLOTS - 1);
        while (slots[at])
            at = (at + 1) & (SLOTS - 1);
        slots[at] = (signed char)(id + 1);
    }
}

int tel_member_id(const char *key, size_t len)
{
    pthread_once(&once, build);
    for (unsigned at = hash(key, len) & (SLOTS - 1); slots[at]; at = (at + 1) & (SLOTS - 1)) {
        const char *name = names[slots[at] - 1];
        if (strlen(name) == len && memcmp(name, key, len) == 0)
            return slots[at] - 1;
    }
    return -1;
}

const char *tel_member_name(int id)
{
    return id >= 0 && id < TEL_MEMBERS ? names[id] : "";
}
