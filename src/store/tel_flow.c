/* tel_flow.c — what both stores decide about one flow (store/telemetry.h). */
#include <string.h>

#include "store/telemetry.h"

void tel_addr_text(const uint8_t key[TEL_ADDR_KEY], char out[NET_TEXT_MAX])
{
    struct ip_addr a = {.family = key[0]};
    memcpy(a.b, key + 1, sizeof a.b);
    ip_format(&a, out);
}

bool tel_flow_is_counter(const struct tel_flow *f)
{
    static const uint8_t zero[TEL_ADDR_KEY - 1];
    bool no_source = (f->src[0] == NET_V4 || f->src[0] == NET_V6) && memcmp(f->src + 1, zero, sizeof zero) == 0;
    return no_source && strcmp(f->policy, TEL_POLICY_OBSERVED) != 0;
}
