/* pm_collector.c — see pm_collector.h. */
#include "dataplane/pmacct/pm_collector.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dataplane/ingest_batch.h"
#include "dataplane/model.h"
#include "deploy/files.h"
#include "store/select/select.h"

extern char **environ;

enum {
    RENDER_EVERY_S = 5,
    ROWS_MAX = 2000000,    /* rows of a batch held at once; a larger batch is folded in parts */
    PENDING_MAX = 200000,  /* records kept for a store that keeps failing */
    LINE_MAX_BYTES = 4096, /* a pmacct row is a few hundred bytes */
    STOP_WAIT_MS = 5000,
};

int pm_parse_line(const char *line, struct pm_row *row, char *router, size_t router_len, char *batch,
                  size_t batch_len)
{
    json_t *o = json_loads(line, 0, NULL);
    const char *type = json_string_value(json_object_get(o, "event_type"));
    int rc = 0;
    if (!type) {
        rc = -1;
    } else if (strcmp(type, "purge_close") == 0) {
        rc = 2;
    } else if (strcmp(type, "purge_init") == 0) {
        const char *w = json_string_value(json_object_get(o, "writer_id")) ?: "";
        snprintf(batch, batch_len, "%s", strchr(w, '/') ? strchr(w, '/') + 1 : w);
        rc = 3;
    } else if (strcmp(type, "purge") == 0) {
        memset(row, 0, sizeof *row);
        const char *src = json_string_value(json_object_get(o, "ip_src"));
        const char *dst = json_string_value(json_object_get(o, "ip_dst"));
        json_t *stamp = json_object_get(o, "stamp_inserted"), *proto = json_object_get(o, "ip_proto");
        long long minute = json_is_string(stamp) ? atoll(json_string_value(stamp)) : json_integer_value(stamp);
        long p = json_is_string(proto) ? atol(json_string_value(proto)) : (long)json_integer_value(proto);
        json_int_t bytes = json_integer_value(json_object_get(o, "bytes"));
        json_int_t packets = json_integer_value(json_object_get(o, "packets"));
        json_int_t rate = json_integer_value(json_object_get(o, "sampling_rate"));
        if (!src || !dst || ip_parse(src, &row->src) != 0 || ip_parse(dst, &row->dst) != 0 || minute <= 0 ||
            p < 0 || p > 255 || bytes < 0 || packets < 0) {
            rc = -1;
        } else {
            row->sport = (uint16_t)json_integer_value(json_object_get(o, "port_src"));
            row->dport = (uint16_t)json_integer_value(json_object_get(o, "port_dst"));
            row->proto = (uint8_t)p;
            row->src_as = (uint32_t)json_integer_value(json_object_get(o, "as_src"));
            row->minute = minute - minute % 60;
            row->bytes = (uint64_t)bytes;
            row->packets = (uint64_t)packets;
            row->sampling = rate > 1 ? (uint32_t)rate : 1;
            snprintf(router, router_len, "%s", json_string_value(json_object_get(o, "peer_ip_src")) ?: "");
            rc = 1;
        }
    }
    json_decref(o);
    return rc;
}

struct block {
    struct cidr c;
    int64_t rid;
};

static struct {
    const struct pm_collector_config *cfg;
    const struct store_config *store_cfg;
    int wake[2];
    bool running, stop;
    pthread_t thread;
    pid_t child;
    int out_fd;
    char *conf;          /* the text the child runs with */
    char line[LINE_MAX_BYTES];
    size_t line_len;
    bool skipping;
    struct pm_row *rows; /* the batch being read */
    size_t n_rows;
    char batch[64], router[64];
    unsigned part;       /* parts of a batch folded early */
    struct block *blocks;
    size_t n_blocks;
    struct pm_site *sites;
    size_t n_sites;
    json_t *pending;
    long stored, left_out, unprotected, bad;
} g = {.wake = {-1, -1}, .out_fd = -1};

static void add_site_blocks(const json_t *blocks, int64_t rid)
{
    size_t i;
    json_t *v;
    json_array_foreach ((json_t *)blocks, i, v) {
        struct cidr c;
        if (cidr_parse(json_string_value(v), CIDR_ALLOW_BARE, &c) != 0)
            continue;
        g.blocks = realloc(g.blocks, (g.n_blocks + 1) * sizeof *g.blocks);
        g.blocks[g.n_blocks++] = (struct block){.c = c, .rid = rid};
    }
}

/* Destinations already looked up (a flood's rows go to a few addresses; the
 * longest-prefix scan over every block is kept for the first row of each). */
enum { SITE_CACHE = 4096 };
static struct {
    struct ip_addr a;
    int64_t rid;
    bool valid;
} site_cache[SITE_CACHE];

/* Where rows go: every site's blocks (CleanPipe hosts' too) and first address. */
static void load_sites(const json_t *model)
{
    memset(site_cache, 0, sizeof site_cache);
    free(g.blocks), free(g.sites);
    g.blocks = NULL, g.sites = NULL;
    g.n_blocks = g.n_sites = 0;
    static const char *const families[] = {"op_sites", "cp_sites", "ap_sites"};
    for (int f = 0; f < 3; f++) {
        size_t i, j;
        json_t *site, *host;
        json_array_foreach (json_object_get(model, families[f]), i, site) {
            int64_t rid = json_integer_value(json_object_get(site, "rid"));
            struct cidr first;
            if (cidr_parse(json_string_value(json_array_get(json_object_get(site, "blocks"), 0)), CIDR_ALLOW_BARE,
                           &first) == 0) {
                g.sites = realloc(g.sites, (g.n_sites + 1) * sizeof *g.sites);
                g.sites[g.n_sites++] = (struct pm_site){.rid = rid, .first = first.addr};
            }
            add_site_blocks(json_object_get(site, "blocks"), rid);
            json_array_foreach (json_object_get(site, "hosts"), j, host)
                add_site_blocks(json_object_get(host, "blocks"), rid);
        }
    }
}

static int64_t site_of(const struct ip_addr *a)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < 16; i++)
        h = (h ^ a->b[i]) * 16777619u;
    h = (h ^ (uint32_t)a->family) % SITE_CACHE;
    if (site_cache[h].valid && site_cache[h].a.family == a->family && memcmp(site_cache[h].a.b, a->b, 16) == 0)
        return site_cache[h].rid;
    int best = -1;
    int64_t rid = 0;
    for (size_t i = 0; i < g.n_blocks; i++)
        if (g.blocks[i].c.prefix > best && cidr_contains_ip(&g.blocks[i].c, a))
            best = g.blocks[i].c.prefix, rid = g.blocks[i].rid;
    site_cache[h].a = *a;
    site_cache[h].rid = rid;
    site_cache[h].valid = true;
    return rid;
}

static void store_pending(struct store *s, int64_t now)
{
    if (!json_array_size(g.pending))
        return;
    long stored = 0, dropped = 0;
    if (s && dp_ingest_records(s, g.pending, now, "pmacct", &stored, &dropped) == 0) {
        json_array_clear(g.pending);
        __atomic_add_fetch(&g.stored, stored, __ATOMIC_RELAXED);
        g.left_out += dropped;
        return;
    }
    if (json_array_size(g.pending) > PENDING_MAX) {
        fprintf(stderr, "parapet: pmacct: %zu records given up (the store keeps failing)\n",
                json_array_size(g.pending));
        json_array_clear(g.pending);
    }
}

/* Folds what was read of the batch into records. */
static void fold(void)
{
    if (!g.n_rows)
        return;
    char batch[80];
    snprintf(batch, sizeof batch, "%s%s%u", *g.batch ? g.batch : "0", g.part ? "." : "", g.part);
    if (g.part == 0)
        snprintf(batch, sizeof batch, "%s", *g.batch ? g.batch : "0");
    json_t *records = json_array();
    pm_fold(g.rows, g.n_rows, g.sites, g.n_sites, batch, *g.router ? g.router : "pmacct", records);
    json_array_extend(g.pending, records);
    json_decref(records);
    g.n_rows = 0;
    g.part++;
}

static void take_line(const char *line)
{
    struct pm_row row;
    char router[64];
    int rc = pm_parse_line(line, &row, router, sizeof router, g.batch, sizeof g.batch);
    if (rc == 3) {
        g.part = 0;
    } else if (rc == 2) {
        fold();
    } else if (rc == 1) {
        row.site = site_of(&row.dst);
        if (!row.site) {
            g.unprotected++;
            return;
        }
        if (*router)
            snprintf(g.router, sizeof g.router, "%s", router);
        if (g.n_rows == ROWS_MAX)
            fold(); /* a huge batch: in parts, each bounded */
        g.rows[g.n_rows++] = row;
    } else if (rc < 0) {
        g.bad++;
    }
}

/* Reads what the daemon wrote; false at the end of its output. */
static bool read_output(void)
{
    char data[65536];
    for (;;) {
        ssize_t n = read(g.out_fd, data, sizeof data);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        for (ssize_t i = 0; i < n; i++) {
            if (data[i] != '\n') {
                if (g.line_len < sizeof g.line - 1)
                    g.line[g.line_len++] = data[i];
                else
                    g.skipping = true;
                continue;
            }
            g.line[g.line_len] = '\0';
            if (g.skipping)
                g.bad++;
            else if (g.line_len)
                take_line(g.line);
            g.line_len = 0;
            g.skipping = false;
        }
    }
}

static void poke(void)
{
    int fd = socket(strchr(g.cfg->render.host, ':') ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return;
    struct sockaddr_storage ss = {0};
    socklen_t len;
    if (strchr(g.cfg->render.host, ':')) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
        a->sin6_family = AF_INET6, a->sin6_port = htons((uint16_t)g.cfg->render.port);
        inet_pton(AF_INET6, g.cfg->render.host, &a->sin6_addr);
        len = sizeof *a;
    } else {
        struct sockaddr_in *a = (struct sockaddr_in *)&ss;
        a->sin_family = AF_INET, a->sin_port = htons((uint16_t)g.cfg->render.port);
        inet_pton(AF_INET, g.cfg->render.host, &a->sin_addr);
        len = sizeof *a;
    }
    if (sendto(fd, "x", 1, 0, (struct sockaddr *)&ss, len) < 0) {
        /* nothing listens any more: it has gone */
    }
    close(fd);
}

/* Stops the daemon by its PID and reads what it purges on the way out. */
static void stop_child(void)
{
    if (g.child <= 0)
        return;
    kill(g.child, SIGINT);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    bool open = true;
    for (;;) {
        poke(); /* it acts on the signal when a datagram arrives */
        struct pollfd pf = {.fd = g.out_fd, .events = POLLIN};
        if (open && poll(&pf, 1, 200) > 0)
            open = read_output();
        int status;
        if (!open && waitpid(g.child, &status, WNOHANG) == g.child)
            break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 > STOP_WAIT_MS) {
            kill(-g.child, SIGKILL); /* its process group: the core and its plugins */
            waitpid(g.child, &status, 0);
            break;
        }
        if (!open)
            usleep(50000);
    }
    kill(-g.child, SIGKILL); /* a plugin that outlived its core */
    fold(); /* a batch cut short */
    close(g.out_fd);
    g.out_fd = -1;
    g.child = 0;
}

static int start_child(const char *conf_path)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP); /* a group of its own: the core and its plugins */
    posix_spawnattr_setpgroup(&at, 0);
    char *argv[] = {(char *)g.cfg->binary, "-f", (char *)conf_path, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, g.cfg->binary, &fa, &at, argv, environ);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    if (rc != 0) {
        close(p[0]);
        fprintf(stderr, "parapet: pmacct: cannot run %s: %s\n", g.cfg->binary, strerror(rc));
        return -1;
    }
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    g.child = pid;
    g.out_fd = p[0];
    g.line_len = 0;
    g.skipping = false;
    return 0;
}

/* The Application Protection VIPs (ap.vip resources are named by their
 * address) as model["ap_sites"]: [{"rid": the site's, "blocks": [VIP]}]. */
static int add_ap_vips(struct store *s, json_t *model)
{
    struct res_query q = {.kind = "ap.vip", .limit = 1000000};
    json_t *rows = NULL, *out = json_array();
    long total;
    int rc = -1;
    if (s->ops->begin(s, false) == STORE_OK) {
        rc = s->ops->res_list(s, &q, &rows, &total) == STORE_OK ? 0 : -1;
        s->ops->commit(s);
    }
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row)
        json_array_append_new(out, json_pack("{s:O,s:[O]}", "rid", json_object_get(row, "parent_rid"), "blocks",
                                             json_object_get(row, "name")));
    json_decref(rows);
    json_object_set_new(model, "ap_sites", out);
    return rc;
}

/* Renders from the store; restarts the daemon on a new configuration. */
static void follow(struct store *s)
{
    json_t *model;
    if (!s)
        return;
    if (dp_model_load(s, &model) != 0 || add_ap_vips(s, model) != 0) {
        fprintf(stderr, "parapet: pmacct: the stored configuration could not be read\n");
        return;
    }
    char why[512] = "";
    char *text = pm_render(&g.cfg->render, model, why, sizeof why);
    load_sites(model);
    json_decref(model);
    if (g.child > 0 && text && g.conf && strcmp(text, g.conf) == 0) {
        free(text);
        return;
    }
    if (!text && !g.conf)
        return; /* nothing to collect, and nothing running */
    if (!text)
        fprintf(stderr, "parapet: pmacct: %s; the collector stops\n", why);
    stop_child();
    free(g.conf);
    g.conf = text;
    if (!text)
        return;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.conf", g.cfg->render.dir, g.cfg->render.sflow ? "sfacctd" : "nfacctd");
    if (files_mkdirs(g.cfg->render.dir) != 0 || files_replace(path, text) != 0 || start_child(path) != 0) {
        fprintf(stderr, "parapet: pmacct: cannot start the collector on %s\n", path);
        free(g.conf);
        g.conf = NULL; /* tried again next time */
    }
}

static void *loop(void *arg)
{
    (void)arg;
    struct store *s = store_open(g.store_cfg);
    if (!s)
        fprintf(stderr, "parapet: pmacct: no store connection; nothing is collected\n");
    int64_t last_render = 0;
    while (!__atomic_load_n(&g.stop, __ATOMIC_ACQUIRE)) {
        int64_t now = (int64_t)time(NULL);
        if (now - last_render >= RENDER_EVERY_S) {
            follow(s);
            last_render = now;
        }
        struct pollfd pf[2] = {{.fd = g.wake[0], .events = POLLIN}, {.fd = g.out_fd, .events = POLLIN}};
        if (poll(pf, g.out_fd >= 0 ? 2 : 1, 1000) > 0 && g.out_fd >= 0 && (pf[1].revents & (POLLIN | POLLHUP))) {
            if (!read_output()) { /* the daemon went away: started again on the next render */
                int status;
                waitpid(g.child, &status, 0);
                fprintf(stderr, "parapet: pmacct: %s exited; starting it again\n", g.cfg->binary);
                fold();
                close(g.out_fd);
                g.out_fd = -1;
                g.child = 0;
                free(g.conf);
                g.conf = NULL;
            }
        }
        store_pending(s, (int64_t)time(NULL));
    }
    stop_child();
    store_pending(s, (int64_t)time(NULL));
    if (s)
        s->ops->close(s);
    return NULL;
}

int pm_collector_start(const struct pm_collector_config *cfg, const struct store_config *store_cfg)
{
    if (g.running)
        return -1;
    if (pipe2(g.wake, O_CLOEXEC | O_NONBLOCK) != 0)
        return -1;
    g.cfg = cfg;
    g.store_cfg = store_cfg;
    g.rows = malloc(ROWS_MAX * sizeof *g.rows);
    g.pending = json_array();
    g.stored = g.left_out = g.unprotected = g.bad = 0;
    g.stop = false;
    if (!g.rows || pthread_create(&g.thread, NULL, loop, NULL) != 0) {
        fprintf(stderr, "parapet: pmacct: cannot start\n");
        pm_collector_stop();
        return -1;
    }
    g.running = true;
    return 0;
}

long pm_collector_stored(void)
{
    return __atomic_load_n(&g.stored, __ATOMIC_RELAXED);
}

void pm_collector_stop(void)
{
    if (g.running) {
        __atomic_store_n(&g.stop, true, __ATOMIC_RELEASE);
        if (write(g.wake[1], "x", 1) < 0) {
            /* the pipe is full: the loop is awake already */
        }
        pthread_join(g.thread, NULL);
        g.running = false;
        fprintf(stderr,
                "parapet: pmacct: stopped; %ld flow records stored, %ld left out, %ld rows toward no site, %ld "
                "bad lines\n",
                g.stored, g.left_out, g.unprotected, g.bad);
    }
    for (int i = 0; i < 2; i++)
        if (g.wake[i] >= 0) {
            close(g.wake[i]);
            g.wake[i] = -1;
        }
    free(g.rows), free(g.conf), free(g.blocks), free(g.sites);
    g.rows = NULL, g.conf = NULL, g.blocks = NULL, g.sites = NULL;
    g.n_blocks = g.n_sites = 0;
    json_decref(g.pending);
    g.pending = NULL;
}
