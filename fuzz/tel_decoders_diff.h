/* tel_decoders_diff.h — one NDJSON line through both record decoders
 * (telemetry/ingest.h tel_decode_line with and without simdjson): the same
 * answer, the same message, the same record. And, more sensitive than the
 * answers (which jansson words whenever simdjson's reader declines): when
 * simdjson's reader takes the line at all, jansson parses it too, into the
 * same members with the same values. Shared by fuzz/fuzz_tel_decoders.c
 * and tests/unit/test_tel_decoders.c. */
#ifndef PARAPET_TEL_DECODERS_DIFF_H
#define PARAPET_TEL_DECODERS_DIFF_H

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "telemetry/decode_simd.h"
#include "telemetry/ingest.h"
#include "telemetry/record.h"

enum { TEL_DIFF_NOW = 1764000000 };

/* Whether jansson reads text into exactly the members of f. */
static inline const char *tel_diff_fields(const char *text, size_t len, const struct tel_fields *f)
{
    json_t *v = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
    const char *why = NULL;
    if (!json_is_object(v))
        why = "simdjson's reader took what jansson does not parse as an object";
    else if (json_object_size(v) != (size_t)__builtin_popcountll(f->present))
        why = "not the same number of members";
    for (int id = 0; id < TEL_MEMBERS && !why; id++) {
        if (!(f->present >> id & 1))
            continue;
        json_t *m = json_object_get(v, tel_member_name(id));
        const struct tel_field *x = &f->f[id];
        if (!m)
            why = "a member jansson does not see";
        else if (x->type == TEL_F_NULL ? !json_is_null(m)
                 : x->type == TEL_F_INTEGER
                     ? !json_is_integer(m) || json_integer_value(m) != x->i
                     : !json_is_string(m) || json_string_length(m) != x->len ||
                           memcmp(json_string_value(m), x->str, x->len) != 0)
            why = "a member's value differs";
    }
    json_decref(v);
    return why;
}

/* NULL when both decoders agree on text[0..len), else what differs. */
static inline const char *tel_decoders_differ(struct tel_simd *simd, const char *text, size_t len)
{
    struct tel_fields f;
    if (tel_simd_fields(simd, text, len, &f) == 0) {
        const char *why = tel_diff_fields(text, len, &f);
        if (why)
            return why;
    }
    struct tel_record ra, rb;
    struct tel_locator la, lb;
    char ma[TEL_MSG_MAX] = "", mb[TEL_MSG_MAX] = "";
    int a = tel_decode_line(simd, text, len, TEL_DIFF_NOW, &ra, &la, ma, sizeof ma);
    int b = tel_decode_line(NULL, text, len, TEL_DIFF_NOW, &rb, &lb, mb, sizeof mb);
    const char *why = NULL;
    char *ea = la.waf_entry ? json_dumps(la.waf_entry, JSON_COMPACT) : NULL;
    char *eb = lb.waf_entry ? json_dumps(lb.waf_entry, JSON_COMPACT) : NULL;
    json_decref(la.waf_entry);
    json_decref(lb.waf_entry);
    la.waf_entry = lb.waf_entry = NULL;
    if (a != b)
        why = "one decoder takes the record, the other refuses it";
    else if (strcmp(ma, mb) != 0)
        why = "not the same message";
    else if (a == 0 && (memcmp(&ra, &rb, sizeof ra) != 0 || memcmp(&la, &lb, sizeof la) != 0))
        why = "not the same record";
    else if (a == 0 && ((ea == NULL) != (eb == NULL) || (ea && strcmp(ea, eb) != 0)))
        why = "not the same WAF entry";
    free(ea);
    free(eb);
    return why;
}

#endif
