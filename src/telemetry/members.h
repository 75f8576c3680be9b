/* members.h — every member name a telemetry record may carry (all kinds),
 * numbered, and a record's members as a decoder saw them (struct
 * tel_fields): the form in which the simdjson decoder hands a record to
 * record.c's rules, so that both decoders share every rule. */
#ifndef PARAPET_TEL_MEMBERS_H
#define PARAPET_TEL_MEMBERS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { TEL_MEMBERS = 52 }; /* fits the 64-bit mask of struct tel_fields */

/* The member's number, or -1 when no kind has a member of that name. */
int tel_member_id(const char *key, size_t len);
const char *tel_member_name(int id);

/* ABSENT and OTHER (a real, boolean, array or object: no rule takes one)
 * only as jansson's tree is read. */
enum tel_field_type { TEL_F_ABSENT, TEL_F_NULL, TEL_F_STRING, TEL_F_INTEGER, TEL_F_OTHER };

struct tel_field {
    enum tel_field_type type;
    const char *str; /* TEL_F_STRING: the unescaped bytes (not NUL-terminated) */
    size_t len;
    int64_t i;       /* TEL_F_INTEGER */
};

/* One JSON object's members: f[id] holds a value when bit id of present is
 * set. Only strings, integers and null are representable: a record with
 * any other value is refused by every kind's rules anyway. */
struct tel_fields {
    uint64_t present;
    struct tel_field f[TEL_MEMBERS];
};

#ifdef __cplusplus
}
#endif

#endif
