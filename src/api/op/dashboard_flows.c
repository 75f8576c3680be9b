/* dashboard_flows.c — what the dashboards that read flows share:
 * per-minute flow sums over several address ranges, a resource's ranges,
 * catalogue names. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/op/dashboard_flows.h"
#include "core/resource.h"
#include "telemetry/record.h"

int64_t dash_now(void)
{
    return (int64_t)time(NULL);
}

/* Adds b's sums into the ascending list *a (*na of them) and frees b (the
 * first list is taken as it is). */
static int add_minutes(struct tel_minute **a, size_t *na, struct tel_minute *b, size_t nb)
{
    if (!*a) {
        *a = b;
        *na = nb;
        return 0;
    }
    struct tel_minute *out = malloc((*na + nb + 1) * sizeof *out);
    if (!out) {
        free(b);
        return -1;
    }
    size_t i = 0, j = 0, n = 0;
    while (i < *na || j < nb) {
        if (j >= nb || (i < *na && (*a)[i].minute < b[j].minute)) {
            out[n++] = (*a)[i++];
        } else if (i >= *na || b[j].minute < (*a)[i].minute) {
            out[n++] = b[j++];
        } else {
            out[n] = (*a)[i++];
            for (int k = 0; k < 2; k++) {
                out[n].bytes[k] += b[j].bytes[k];
                out[n].packets[k] += b[j].packets[k];
            }
            n++;
            j++;
        }
    }
    free(*a);
    free(b);
    *a = out;
    *na = n;
    return 0;
}

/* The sums of base over the merged ranges (n 0: every destination) and,
 * with base->observed_too, those of the observations apart (*obs). */
static int sum_minutes(struct req *r, const struct tel_minutes_query *base, const struct tel_range *ranges, size_t n,
                       struct tel_minute **out, size_t *nout, struct tel_minute **obs, size_t *nobs)
{
    *out = *obs = NULL;
    *nout = *nobs = 0;
    for (size_t i = 0; i < (n ? n : 1); i++) {
        struct tel_minutes_query q = *base;
        q.range = n ? &ranges[i] : NULL;
        struct tel_minute *part = NULL, *obs_part = NULL;
        size_t np = 0, nobs_part = 0;
        int rc = r->store->ops->tel_op_minutes(r->store, &q, &part, &np, &obs_part, &nobs_part);
        if (rc != STORE_OK)
            part = obs_part = NULL, np = nobs_part = 0; /* nothing was made */
        int added = add_minutes(out, nout, part, np);
        if (add_minutes(obs, nobs, obs_part, nobs_part) != 0 || added != 0)
            rc = STORE_ERROR;
        if (rc != STORE_OK) {
            free(*out);
            free(*obs);
            *out = *obs = NULL;
            *nout = *nobs = 0;
            reply_store_error(r, rc);
            return -1;
        }
    }
    return 0;
}

void dash_prefer_verdicts(struct tel_minute *all, size_t n, const struct tel_minute *observed, size_t nobs)
{
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        while (j < nobs && observed[j].minute < all[i].minute)
            j++;
        if (j == nobs)
            break;
        if (observed[j].minute != all[i].minute)
            continue;
        struct tel_minute v = all[i];
        int64_t seen = 0;
        for (int k = 0; k < 2; k++) {
            v.bytes[k] -= observed[j].bytes[k];
            v.packets[k] -= observed[j].packets[k];
            seen += v.packets[k] + v.bytes[k];
        }
        if (seen > 0) /* a verdict was counted: the observations are in it already */
            all[i] = v;
    }
}

int dash_minutes(struct req *r, const struct tel_minutes_query *base, struct tel_range *ranges, size_t n,
                 struct tel_minute **out, size_t *nout)
{
    n = dash_ranges_merge(ranges, n);
    /* without a policy, the observations' sums come in the same read */
    struct tel_minutes_query q = *base;
    q.observed_too = !base->policy;
    struct tel_minute *observed;
    size_t nobs;
    if (sum_minutes(r, &q, ranges, n, out, nout, &observed, &nobs) != 0)
        return -1;
    dash_prefer_verdicts(*out, *nout, observed, nobs);
    free(observed);
    return 0;
}

int dash_holder_ranges(struct req *r, int64_t rid, struct tel_range **out, size_t *n, json_t **cidrs)
{
    struct cidr *blocks = NULL;
    size_t nb = 0;
    *out = NULL;
    *n = 0;
    int rc = r->store->ops->blocks_get(r->store, rid, &blocks, &nb);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    *out = calloc(nb ? nb : 1, sizeof **out);
    if (!*out) {
        free(blocks);
        reply_error(r, E_INTERNAL, NULL);
        return -1;
    }
    if (cidrs)
        *cidrs = json_array();
    for (size_t i = 0; i < nb; i++) {
        tel_block_keys(&blocks[i], (*out)[i].lo, (*out)[i].hi);
        if (cidrs) {
            char text[NET_TEXT_MAX];
            cidr_format(&blocks[i], text);
            json_array_append_new(*cidrs, json_string(text));
        }
    }
    *n = nb;
    free(blocks);
    return 0;
}
