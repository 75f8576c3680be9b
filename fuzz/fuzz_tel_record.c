/* fuzz_tel_record.c — the ingest decoder: any JSON value either decodes
 * into a record whose members keep their rules, or is refused with a
 * message naming a member. Input: one JSON text. */
#include <stdint.h>
#include <string.h>

#include "fuzz_assert.h"
#include "telemetry/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t je;
    json_t *v = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
    if (!v)
        return 0;
    struct tel_record rec;
    struct tel_locator loc;
    char msg[TEL_MSG_MAX] = "";
    int rc = tel_record_decode(v, 1764000000, &rec, &loc, msg, sizeof msg);
    if (rc != 0) {
        FUZZ_ASSERT(rc == -1 && strstr(msg, ": ") != NULL);
    } else if (rec.kind == TEL_FLOW) {
        FUZZ_ASSERT(rec.u.flow.bytes >= 0 && rec.u.flow.packets >= 0 && rec.u.flow.src_port <= 65535);
        FUZZ_ASSERT(rec.u.flow.time >= 946684800 && rec.u.flow.time <= 1764000000 + 86400);
    } else if (rec.kind == TEL_DDOS_EVENT) {
        FUZZ_ASSERT(!rec.u.ev.end_time || rec.u.ev.end_time >= rec.u.ev.start_time);
        FUZZ_ASSERT(rec.u.ev.severity >= 0 && rec.u.ev.severity <= TEL_SEV_BLACKHOLE);
        FUZZ_ASSERT(loc.has_addr || loc.site_id[0]);
    } else if (rec.kind == TEL_WAF_LOG) {
        FUZZ_ASSERT(loc.waf_entry && json_is_object(loc.waf_entry));
        FUZZ_ASSERT(tel_waf_attack_type(rec.u.waf.attack_type));
    }
    json_decref(loc.waf_entry);
    json_decref(v);
    return 0;
}
