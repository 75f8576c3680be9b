/* metrics.c — see metrics.h. */
#include "base/metrics.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/strbuf.h"

typedef _Atomic uint64_t counter;

/* Status codes counted one by one; the rest as "other". */
static const int codes[] = {200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 405, 406,
                            409, 411, 413, 414, 415, 422, 429, 431, 500, 501, 503, 507};
enum { N_CODES = sizeof codes / sizeof codes[0], N_SLOTS = N_CODES + 1, N_METHODS_MAX = 16 };

/* Latency bounds (seconds) of the request histogram. */
static const double bounds[] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10};
enum { N_BOUNDS = sizeof bounds / sizeof bounds[0] };

struct histogram {
    counter bucket[N_BOUNDS + 1]; /* the last: above every bound */
    counter count, sum_us;
};

static void observe(struct histogram *h, double seconds)
{
    size_t i = 0;
    while (i < N_BOUNDS && seconds > bounds[i])
        i++;
    atomic_fetch_add_explicit(&h->bucket[i], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->count, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->sum_us, (uint64_t)(seconds * 1e6), memory_order_relaxed);
}

/* Per row (metrics_rows: a route each, the last for requests no route matched). */
static counter (*requests)[N_METHODS_MAX][N_SLOTS];
static struct histogram *latency;
static size_t n_rows;
static const struct metrics_rows *rows_of;

static struct histogram store_write, store_sync;
static counter sync_commits, sync_count;
static counter ingest_batches, ingest_refused, ingest_records, ingest_stored, ingest_duplicates;
static _Atomic int64_t ingest_last; /* when the last batch was stored */
static time_t started;

/* Counters per name (a deployer's, a plane's): [0] ok / checks, [1] failed. */
enum { NAMED_MAX = 8 };
struct named {
    const char *name;
    counter n[2];
};
static struct named deploys[NAMED_MAX], checks[NAMED_MAX];
static pthread_mutex_t deploys_mu = PTHREAD_MUTEX_INITIALIZER;

static unsigned (*in_flight_fn)(void *);
static void *in_flight_arg;

int metrics_init(const struct metrics_rows *rows)
{
    started = time(NULL);
    if (requests)
        return 0;
    if (!rows || rows->count == 0 || rows->methods < 1 || rows->methods > N_METHODS_MAX)
        return -1;
    rows_of = rows;
    n_rows = rows->count;
    requests = calloc(n_rows, sizeof *requests);
    latency = calloc(n_rows, sizeof *latency);
    return requests && latency ? 0 : -1;
}

static size_t slot_of(int status)
{
    for (size_t i = 0; i < N_CODES; i++)
        if (codes[i] == status)
            return i;
    return N_CODES;
}

void metrics_request(size_t row, int method, int status, double seconds)
{
    if (!requests)
        return;
    if (row >= n_rows || method < 0 || method >= rows_of->methods)
        return;
    atomic_fetch_add_explicit(&requests[row][method][slot_of(status)], 1, memory_order_relaxed);
    observe(&latency[row], seconds);
}

void metrics_in_flight_source(unsigned (*fn)(void *arg), void *arg)
{
    in_flight_arg = arg;
    in_flight_fn = fn;
}

void metrics_store_write(double seconds)
{
    observe(&store_write, seconds);
}

void metrics_store_sync(uint64_t commits, double seconds)
{
    observe(&store_sync, seconds);
    atomic_fetch_add_explicit(&sync_commits, commits, memory_order_relaxed);
    atomic_fetch_add_explicit(&sync_count, 1, memory_order_relaxed);
}

/* Adds one to table[name].n[which] (names are literals of the callers;
 * a few calls a minute: a lock is fine). */
static void named_add(struct named *table, const char *name, int which)
{
    pthread_mutex_lock(&deploys_mu);
    for (size_t i = 0; i < NAMED_MAX; i++) {
        if (table[i].name && strcmp(table[i].name, name) != 0)
            continue;
        table[i].name = name;
        atomic_fetch_add_explicit(&table[i].n[which], 1, memory_order_relaxed);
        break;
    }
    pthread_mutex_unlock(&deploys_mu);
}

void metrics_deploy_pass(const char *deployer, int ok)
{
    named_add(deploys, deployer, ok ? 0 : 1);
}

void metrics_dataplane_check(const char *plane)
{
    named_add(checks, plane, 0);
}

void metrics_ingest(long records, long stored, long duplicates, int refused)
{
    atomic_fetch_add_explicit(&ingest_batches, 1, memory_order_relaxed);
    if (refused) {
        atomic_fetch_add_explicit(&ingest_refused, 1, memory_order_relaxed);
        return;
    }
    atomic_fetch_add_explicit(&ingest_records, (uint64_t)records, memory_order_relaxed);
    atomic_fetch_add_explicit(&ingest_stored, (uint64_t)stored, memory_order_relaxed);
    atomic_fetch_add_explicit(&ingest_duplicates, (uint64_t)duplicates, memory_order_relaxed);
    atomic_store_explicit(&ingest_last, (int64_t)time(NULL), memory_order_relaxed);
}

static uint64_t get(counter *c)
{
    return atomic_load_explicit(c, memory_order_relaxed);
}

static void help(struct strbuf *b, const char *name, const char *type, const char *text)
{
    sb_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, text, name, type);
}

static void histogram(struct strbuf *b, const char *name, const char *labels, struct histogram *h)
{
    uint64_t cumulative = 0;
    const char *sep = *labels ? "," : "";
    for (size_t i = 0; i <= N_BOUNDS; i++) {
        cumulative += get(&h->bucket[i]);
        if (i < N_BOUNDS)
            sb_printf(b, "%s_bucket{%s%sle=\"%g\"} %llu\n", name, labels, sep, bounds[i],
                      (unsigned long long)cumulative);
        else
            sb_printf(b, "%s_bucket{%s%sle=\"+Inf\"} %llu\n", name, labels, sep, (unsigned long long)cumulative);
    }
    char set[200] = "";
    if (*labels)
        snprintf(set, sizeof set, "{%s}", labels);
    sb_printf(b, "%s_sum%s %.6f\n%s_count%s %llu\n", name, set, (double)get(&h->sum_us) / 1e6, name, set,
              (unsigned long long)get(&h->count));
}

static void render_requests(struct strbuf *b)
{
    help(b, "parapet_http_requests_total", "counter", "Answered requests by route id, method and status.");
    uint64_t issued = 0, refused = 0;
    for (size_t row = 0; row < n_rows; row++)
        for (int m = 0; m < rows_of->methods; m++)
            for (size_t s = 0; s < N_SLOTS; s++) {
                uint64_t n = get(&requests[row][m][s]);
                if (!n)
                    continue;
                char code[8];
                snprintf(code, sizeof code, s < N_CODES ? "%d" : "other", s < N_CODES ? codes[s] : 0);
                sb_printf(b, "parapet_http_requests_total{route=\"%s\",method=\"%s\",code=\"%s\"} %llu\n",
                          rows_of->row_id(row), rows_of->method(m), code, (unsigned long long)n);
                /* the token endpoints: issued or refused */
                if (rows_of->issues_tokens(row)) {
                    if (s < N_CODES && codes[s] == 200)
                        issued += n;
                    else if (s == N_CODES || codes[s] >= 400)
                        refused += n;
                }
            }
    help(b, "parapet_http_request_duration_seconds", "histogram", "Time from request start to reply, by route id.");
    for (size_t row = 0; row < n_rows; row++) {
        if (!get(&latency[row].count))
            continue;
        char labels[160];
        snprintf(labels, sizeof labels, "route=\"%s\"", rows_of->row_id(row));
        histogram(b, "parapet_http_request_duration_seconds", labels, &latency[row]);
    }
    help(b, "parapet_http_requests_in_flight", "gauge", "Requests being handled.");
    sb_printf(b, "parapet_http_requests_in_flight %u\n", in_flight_fn ? in_flight_fn(in_flight_arg) : 0);
    help(b, "parapet_tokens_issued_total", "counter", "Tokens issued by the token endpoints.");
    sb_printf(b, "parapet_tokens_issued_total %llu\n", (unsigned long long)issued);
    help(b, "parapet_token_failures_total", "counter", "Token requests refused.");
    sb_printf(b, "parapet_token_failures_total %llu\n", (unsigned long long)refused);
    uint64_t limited = 0;
    for (size_t row = 0; row < n_rows; row++)
        for (int m = 0; m < rows_of->methods; m++)
            limited += get(&requests[row][m][slot_of(429)]);
    help(b, "parapet_rate_limited_total", "counter", "Requests refused by a rate limit (429).");
    sb_printf(b, "parapet_rate_limited_total %llu\n", (unsigned long long)limited);
}

static void render_store(struct strbuf *b)
{
    help(b, "parapet_store_write_transaction_seconds", "histogram",
         "Write transactions that wrote, BEGIN IMMEDIATE to COMMIT.");
    histogram(b, "parapet_store_write_transaction_seconds", "", &store_write);
    help(b, "parapet_store_wal_sync_seconds", "histogram", "fdatasync of the WAL (group commit).");
    histogram(b, "parapet_store_wal_sync_seconds", "", &store_sync);
    help(b, "parapet_store_wal_sync_commits_total", "counter",
         "Commits made durable by the syncs (divided by the syncs: the mean batch).");
    sb_printf(b, "parapet_store_wal_sync_commits_total %llu\n", (unsigned long long)get(&sync_commits));
}

static void render_deploys(struct strbuf *b)
{
    help(b, "parapet_deploy_passes_total", "counter", "Data-plane deploy passes by deployer and result.");
    pthread_mutex_lock(&deploys_mu);
    for (size_t i = 0; i < NAMED_MAX && deploys[i].name; i++) {
        sb_printf(b, "parapet_deploy_passes_total{deployer=\"%s\",result=\"ok\"} %llu\n", deploys[i].name,
                  (unsigned long long)get(&deploys[i].n[0]));
        sb_printf(b, "parapet_deploy_passes_total{deployer=\"%s\",result=\"failed\"} %llu\n", deploys[i].name,
                  (unsigned long long)get(&deploys[i].n[1]));
    }
    help(b, "parapet_dataplane_checks_total", "counter",
         "Runs of a data plane's checker over a candidate configuration (FastNetMon, BIRD, nginx -t).");
    for (size_t i = 0; i < NAMED_MAX && checks[i].name; i++)
        sb_printf(b, "parapet_dataplane_checks_total{plane=\"%s\"} %llu\n", checks[i].name,
                  (unsigned long long)get(&checks[i].n[0]));
    pthread_mutex_unlock(&deploys_mu);
}

static void render_ingest(struct strbuf *b)
{
    help(b, "parapet_ingest_batches_total", "counter", "Ingest batches, stored or refused as a whole.");
    sb_printf(b, "parapet_ingest_batches_total{result=\"stored\"} %llu\n",
              (unsigned long long)(get(&ingest_batches) - get(&ingest_refused)));
    sb_printf(b, "parapet_ingest_batches_total{result=\"refused\"} %llu\n", (unsigned long long)get(&ingest_refused));
    help(b, "parapet_ingest_records_total", "counter", "Records of stored batches: stored, or duplicates.");
    sb_printf(b, "parapet_ingest_records_total{result=\"stored\"} %llu\n", (unsigned long long)get(&ingest_stored));
    sb_printf(b, "parapet_ingest_records_total{result=\"duplicate\"} %llu\n",
              (unsigned long long)get(&ingest_duplicates));
    int64_t last = atomic_load_explicit(&ingest_last, memory_order_relaxed);
    help(b, "parapet_ingest_last_batch_age_seconds", "gauge",
         "Seconds since the last batch was stored (-1: none yet): producers that went quiet.");
    sb_printf(b, "parapet_ingest_last_batch_age_seconds %lld\n", last ? (long long)(time(NULL) - last) : -1LL);
}

/* Resident memory, CPU time, threads (/proc/self/stat), open descriptors. */
static void render_process(struct strbuf *b)
{
    unsigned long utime = 0, stime = 0, rss_pages = 0;
    long threads = 0;
    FILE *f = fopen("/proc/self/stat", "r");
    if (f) {
        /* fields 14, 15 (utime, stime), 20 (threads), 24 (rss): after the ")" of the command */
        char line[1024];
        if (fgets(line, sizeof line, f)) {
            const char *p = strrchr(line, ')');
            if (p && sscanf(p + 2,
                            "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu %*d %*d %*d %*d %ld %*d %*u %*u %lu",
                            &utime, &stime, &threads, &rss_pages) != 4)
                utime = stime = rss_pages = 0, threads = 0;
        }
        fclose(f);
    }
    long tick = sysconf(_SC_CLK_TCK), page = sysconf(_SC_PAGESIZE);
    int fds = 0;
    DIR *d = opendir("/proc/self/fd");
    if (d) {
        for (struct dirent *e; (e = readdir(d));)
            fds += e->d_name[0] != '.';
        closedir(d);
    }
    help(b, "process_cpu_seconds_total", "counter", "User and system CPU time.");
    sb_printf(b, "process_cpu_seconds_total %.2f\n", tick > 0 ? (double)(utime + stime) / (double)tick : 0);
    help(b, "process_resident_memory_bytes", "gauge", "Resident memory.");
    sb_printf(b, "process_resident_memory_bytes %lu\n", rss_pages * (unsigned long)(page > 0 ? page : 4096));
    help(b, "process_open_fds", "gauge", "Open file descriptors.");
    sb_printf(b, "process_open_fds %d\n", fds > 0 ? fds - 1 : 0); /* less opendir's own */
    help(b, "process_threads", "gauge", "Threads.");
    sb_printf(b, "process_threads %ld\n", threads);
    help(b, "process_start_time_seconds", "gauge", "Start time (unix seconds).");
    sb_printf(b, "process_start_time_seconds %lld\n", (long long)started);
}

char *metrics_render(const char *extra)
{
    struct strbuf b = {0};
    if (requests)
        render_requests(&b);
    render_store(&b);
    render_deploys(&b);
    render_ingest(&b);
    render_process(&b);
    if (extra)
        sb_add(&b, extra);
    return sb_take(&b);
}
