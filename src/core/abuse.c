/* abuse.c — see abuse.h. */
#include "core/abuse.h"

#include <string.h>
#include <time.h>

#include "core/config.h"
#include "core/ratelimit.h"

enum {
    QUOTA_SLOTS = 4096,  /* apps: ~200 KiB */
    GUARD_SLOTS = 65536, /* app and address pairs, addresses: ~3.5 MiB */
    ADDRESS_FACTOR = 4,  /* failures an address may make across apps, per app's allowance */
};

static struct ratelimit *quotas, *guard;

int abuse_init(void)
{
    quotas = ratelimit_new(QUOTA_SLOTS);
    guard = ratelimit_new(GUARD_SLOTS);
    return quotas && guard ? 0 : -1;
}

void abuse_shutdown(void)
{
    ratelimit_free(quotas);
    ratelimit_free(guard);
    quotas = guard = NULL;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int abuse_app_request(struct req *r, const char *app_id)
{
    const struct server_config *c = r->config;
    if (!quotas || c->rate_limit == 0)
        return 0;
    struct rl_verdict v;
    ratelimit_take(quotas, app_id, strlen(app_id), c->rate_limit, c->rate_window_s, now_ms(), &v);
    /* The RateLimit headers cost every answer ~1 us (bench/run): they are
     * sent once half the quota is spent, when a client has reason to pace. */
    if (v.limited || v.remaining <= v.limit / 2) {
        r->rate_limit = v.limit;
        r->rate_window = v.window_s;
        r->rate_remaining = v.remaining;
        r->rate_reset = v.reset_s;
    }
    if (!v.limited)
        return 0;
    r->retry_after = v.reset_s;
    reply_error(r, E_RATE_LIMITED, "app %s: more than %u requests in %u s; retry after %u s", app_id, v.limit,
                v.window_s, v.reset_s);
    return -1;
}

/* The guard's two keys: the app from this address, and this address. */
struct guard_keys {
    unsigned char pair[1 + sizeof(struct ip_addr) + 64], addr[1 + sizeof(struct ip_addr)];
    size_t pair_len;
};

static void guard_keys(const struct req *r, struct guard_keys *k)
{
    const char *app = field_str((struct req *)r, "app_id");
    size_t n = app ? strlen(app) : 0;
    if (n > 64)
        n = 64;
    k->addr[0] = 'A';
    memcpy(k->addr + 1, &r->client, sizeof r->client);
    k->pair[0] = 'P';
    memcpy(k->pair + 1, &r->client, sizeof r->client);
    memcpy(k->pair + 1 + sizeof r->client, app ? app : "", n);
    k->pair_len = 1 + sizeof r->client + n;
}

int abuse_guard_check(struct req *r)
{
    if (!guard || r->config->auth_free_failures == 0)
        return 0;
    struct guard_keys k;
    guard_keys(r, &k);
    int64_t now = now_ms();
    unsigned a = ratelimit_blocked(guard, k.pair, k.pair_len, now);
    unsigned b = ratelimit_blocked(guard, k.addr, sizeof k.addr, now);
    unsigned wait = a > b ? a : b;
    if (wait == 0)
        return 0;
    r->retry_after = wait;
    reply_error(r, E_RATE_LIMITED, "too many failed attempts from this address; retry after %u s", wait);
    return -1;
}

void abuse_guard_record(struct req *r)
{
    const struct server_config *c = r->config;
    if (!guard || c->auth_free_failures == 0)
        return;
    struct guard_keys k;
    guard_keys(r, &k);
    if (r->status < 400) {
        ratelimit_forgive(guard, k.pair, k.pair_len);
        return;
    }
    if (r->status != 401 && r->code != err_code(E_GRANT_NOT_ALLOWED))
        return;
    int64_t now = now_ms();
    struct rl_backoff pair = {c->auth_free_failures, 1, c->auth_max_block_s};
    struct rl_backoff addr = {ADDRESS_FACTOR * c->auth_free_failures, 1, c->auth_max_block_s};
    ratelimit_fail(guard, k.pair, k.pair_len, &pair, now);
    ratelimit_fail(guard, k.addr, sizeof k.addr, &addr, now);
}
