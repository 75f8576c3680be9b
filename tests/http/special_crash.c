/* special_crash.c — crash safety: clients issue tokens and create DNS zones
 * as fast as they can while the server is killed with SIGKILL at a random
 * moment, several times over. After each kill the database (opened
 * directly, the server being dead) must pass PRAGMA integrity_check and
 * foreign_key_check and hold every write that was acknowledged with code
 * 0; the server must then start again on it. On PostgreSQL (PARAPET_STORE)
 * the killed process is one node and the database lives on: the store is
 * read through the store interface, which must hold every acknowledged
 * write (the database's own integrity is PostgreSQL's). */
#include <gnutls/crypto.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "http/harness.h"
#include "http/special.h"
#include "store/select/select.h"
#include "store/store.h"

#define FAIL(...) (check_fail(__func__, __VA_ARGS__), 1)

/* Half the writers issue tokens flat out; the others create zones, paced
 * so that the customer's 1000-zone limit is never reached. */
enum { CYCLES = 5, WRITERS = 4, ZONE_PAUSE_MS = 12, ZONES_PER_CYCLE = 90, MAX_ACKED = 400000 };

struct world {
    char data[300], ca_file[400], base[64];
    char app_id[64], secret[128], zone_token[128];
};

/* What the clients were told was stored. */
static struct {
    pthread_mutex_t lock;
    char (*tokens)[65];
    int ntokens;
    char (*zones)[64];
    int nzones;
} acked = {.lock = PTHREAD_MUTEX_INITIALIZER};

static atomic_bool stop;
/* Answers other than success: 503 50300001 (the database cannot be reached)
 * and anything else (another status, no answer at all). */
static atomic_int unavailable, odd;
static char first_odd[256]; /* the first such answer, for the report */

struct writer {
    const struct world *w;
    int id, cycle, zones_made; /* in this cycle */
};

static size_t collect_body(char *p, size_t size, size_t n, void *ud)
{
    char *buf = ud;
    size_t have = strlen(buf), add = size * n;
    if (have + add < 4096) {
        memcpy(buf + have, p, add);
        buf[have + add] = '\0';
    }
    return add;
}

/* One POST; the decoded reply if the server answered code 0, else NULL. */
static json_t *post(CURL *c, const struct world *w, const char *path, const char *type, const char *body)
{
    char url[512], ctype[64], reply[4096] = "";
    snprintf(url, sizeof url, "%s%s", w->base, path);
    snprintf(ctype, sizeof ctype, "Content-Type: %s", type);
    struct curl_slist *h = curl_slist_append(NULL, ctype);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, reply);
    curl_easy_setopt(c, CURLOPT_CAINFO, w->ca_file);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 10L);
    CURLcode rc = curl_easy_perform(c);
    curl_slist_free_all(h);
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    if (rc == CURLE_OK && status == 503 && strstr(reply, "\"code\":50300001"))
        atomic_fetch_add(&unavailable, 1);
    else if ((rc != CURLE_OK || status != 200) && atomic_fetch_add(&odd, 1) == 0)
        snprintf(first_odd, sizeof first_odd, "%s %ld %.200s", path, status, rc == CURLE_OK ? reply : curl_easy_strerror(rc));
    json_t *j = rc == CURLE_OK && status == 200 ? json_loads(reply, 0, NULL) : NULL;
    if (j && json_integer_value(json_object_get(j, "code")) != 0) {
        json_decref(j);
        j = NULL;
    }
    return j;
}

static void *write_loop(void *arg)
{
    struct writer *wr = arg;
    const struct world *w = wr->w;
    CURL *c = curl_easy_init();
    char body[512], path[256];
    for (int i = 0; !atomic_load(&stop); i++) {
        bool zone = wr->id % 2 == 1;
        if (zone && wr->zones_made == ZONES_PER_CYCLE)
            break;
        char name[64];
        json_t *j;
        if (zone) {
            struct timespec pause = {0, ZONE_PAUSE_MS * 1000 * 1000};
            nanosleep(&pause, NULL);
            snprintf(name, sizeof name, "crash-%d-%d-%d.example", wr->id, wr->cycle, wr->zones_made);
            snprintf(path, sizeof path, "/api/specp/dp/v2/zones/standard?access_token=%s", w->zone_token);
            snprintf(body, sizeof body, "{\"zone_name\":\"%s\",\"enable_dnssec\":true}", name);
            j = post(c, w, path, "application/json", body);
            wr->zones_made++; /* tried: a name is never sent twice */
        } else {
            snprintf(body, sizeof body, "app_id=%s&secret=%s&grant_type=client_credential", w->app_id, w->secret);
            j = post(c, w, "/oauth/credit/token", "application/x-www-form-urlencoded", body);
        }
        if (!j) {
            struct timespec ts = {0, 20 * 1000 * 1000}; /* the server is down: wait for the end */
            nanosleep(&ts, NULL);
            continue;
        }
        const char *tok = json_string_value(json_object_get(json_object_get(j, "result"), "access_token"));
        pthread_mutex_lock(&acked.lock);
        if (zone && acked.nzones < MAX_ACKED)
            snprintf(acked.zones[acked.nzones++], 64, "%s", name);
        else if (!zone && tok && acked.ntokens < MAX_ACKED)
            snprintf(acked.tokens[acked.ntokens++], 65, "%s", tok);
        pthread_mutex_unlock(&acked.lock);
        json_decref(j);
    }
    curl_easy_cleanup(c);
    return NULL;
}

static void sha256_hex(const char *s, char *out)
{
    unsigned char d[32];
    gnutls_hash_fast(GNUTLS_DIG_SHA256, s, strlen(s), d);
    for (int i = 0; i < 32; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
}

static bool present(sqlite3 *db, const char *sql, const char *value)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(st, 1, value, -1, SQLITE_TRANSIENT);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

/* The first column of the first row of a pragma, as text ("" if none). */
static void pragma(sqlite3 *db, const char *sql, char *out, size_t size)
{
    sqlite3_stmt *st;
    out[0] = '\0';
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        snprintf(out, size, "cannot run %s", sql);
        return;
    }
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(out, size, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
}

/* PostgreSQL: every acknowledged write, read through the store interface. */
static int verify_store(const char *url, int cycle)
{
    struct store_config cfg = {.backend = "postgresql", .path = url};
    struct store *s = store_open(&cfg);
    if (!s || s->ops->begin(s, false) != STORE_OK) {
        if (s)
            s->ops->close(s);
        return FAIL("cycle %d: cannot open the store %s", cycle, url);
    }
    char digest[65];
    int lost_tokens = 0, lost_zones = 0;
    for (int i = 0; i < acked.ntokens; i++) {
        struct token t;
        sha256_hex(acked.tokens[i], digest);
        lost_tokens += s->ops->token_get(s, digest, &t) != STORE_OK || t.type != TOKEN_ACCESS;
    }
    for (int i = 0; i < acked.nzones; i++) {
        struct dns_zone z;
        lost_zones += s->ops->dns_zone_get(s, var_get("CRASH_CUSTOMER"), acked.zones[i], &z) != STORE_OK ||
                      !z.enable_dnssec || strcmp(z.origin_name, acked.zones[i]) != 0;
    }
    s->ops->rollback(s);
    s->ops->close(s);
    return lost_tokens || lost_zones ? FAIL("cycle %d: acknowledged but missing: %d of %d tokens, %d of %d zones", cycle,
                                            lost_tokens, acked.ntokens, lost_zones, acked.nzones)
                                     : 0;
}

static int verify(const struct world *w, int cycle)
{
    const char *url = getenv("PARAPET_STORE");
    if (url && *url)
        return verify_store(url, cycle);
    char path[400], text[256], digest[65];
    snprintf(path, sizeof path, "%s/parapet.db", w->data);
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
        return FAIL("cycle %d: cannot open %s", cycle, path);
    int bad = 0;
    pragma(db, "PRAGMA integrity_check", text, sizeof text);
    bad |= strcmp(text, "ok") != 0 ? FAIL("cycle %d: integrity_check: %s", cycle, text) : 0;
    pragma(db, "PRAGMA foreign_key_check", text, sizeof text);
    bad |= text[0] ? FAIL("cycle %d: foreign_key_check: a row of %s has no parent", cycle, text) : 0;
    int lost_tokens = 0, lost_zones = 0;
    for (int i = 0; i < acked.ntokens; i++) {
        sha256_hex(acked.tokens[i], digest);
        lost_tokens += !present(db, "SELECT 1 FROM tokens WHERE digest = ?1 AND type = 1", digest);
    }
    for (int i = 0; i < acked.nzones; i++)
        lost_zones += !present(db,
                               "SELECT 1 FROM dns_zones WHERE name = ?1 AND origin_name = ?1 AND enable_dnssec = 1 "
                               "AND deploy_state = 'pending'",
                               acked.zones[i]);
    bad |= lost_tokens || lost_zones ? FAIL("cycle %d: acknowledged but missing: %d of %d tokens, %d of %d zones",
                                            cycle, lost_tokens, acked.ntokens, lost_zones, acked.nzones)
                                     : 0;
    sqlite3_close(db);
    return bad;
}

/* A data directory of its own, with a portal app and an installed app
 * for a customer with DNS Protection; the server uses the fixture's
 * certificate. The installed app's token needs the server: login(). */
static int seed(struct fixture *fx, struct world *w, int port)
{
    snprintf(w->data, sizeof w->data, "%s/crash", fx->data);
    snprintf(w->ca_file, sizeof w->ca_file, "%s", fx->ca_file);
    snprintf(w->base, sizeof w->base, "https://127.0.0.1:%d", port);
    json_t *p = admin(fx->bin, w->data, "portal create --name Crash");
    const char *portal = json_string_value(json_object_get(p, "portal_id"));
    json_t *a = admin(fx->bin, w->data, "app create --kind portal --portal %s --name CrashPortalApp", portal);
    json_t *c = admin(fx->bin, w->data, "customer create --portal %s --name CrashCustomer --services dns", portal);
    json_t *ia =
        admin(fx->bin, w->data, "app create --kind installed --name CrashApp --host-url https://app.example.test");
    const char *ia_id = json_string_value(json_object_get(ia, "app_id"));
    const char *customer = json_string_value(json_object_get(c, "customer_id"));
    json_t *in = admin(fx->bin, w->data, "install --app %s --customer %s", ia_id, customer);
    const char *xspe = json_string_value(json_object_get(in, "xspe"));
    int rc = -1;
    if (json_string_value(json_object_get(a, "secret")) && xspe) {
        snprintf(w->app_id, sizeof w->app_id, "%s", json_string_value(json_object_get(a, "app_id")));
        snprintf(w->secret, sizeof w->secret, "%s", json_string_value(json_object_get(a, "secret")));
        var_set("CRASH_IA_ID", ia_id);
        var_set("CRASH_IA_SECRET", json_string_value(json_object_get(ia, "secret")));
        var_set("CRASH_XSPE", xspe);
        var_set("CRASH_CUSTOMER", customer);
        rc = 0;
    }
    json_decref(p);
    json_decref(a);
    json_decref(c);
    json_decref(ia);
    json_decref(in);
    return rc;
}

static int login(struct fixture *fx, struct world *w)
{
    if (fixture_install_login(fx, w->base, var_get("CRASH_IA_ID"), var_get("CRASH_IA_SECRET"),
                              var_get("CRASH_XSPE"), var_get("CRASH_CUSTOMER"), "CRASH") != 0)
        return -1;
    snprintf(w->zone_token, sizeof w->zone_token, "%s", var_get("CRASH_TOKEN"));
    return 0;
}

static void writers_start(const struct world *w, struct writer *wr, pthread_t *th, int cycle)
{
    atomic_store(&stop, false);
    for (int i = 0; i < WRITERS; i++) {
        wr[i] = (struct writer){.w = w, .id = i, .cycle = cycle};
        pthread_create(&th[i], NULL, write_loop, &wr[i]);
    }
}

static void writers_stop(pthread_t *th)
{
    atomic_store(&stop, true);
    for (int i = 0; i < WRITERS; i++)
        pthread_join(th[i], NULL);
}

/* Waits (up to secs) until both kinds of write (or tokens only, without
 * zones_too) have been acknowledged since the counts were before_t and
 * before_z; whether they were. */
static bool writes_flowing(int before_t, int before_z, bool zones_too, int secs)
{
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (int waited = 0; waited < secs * 100; waited++) {
        pthread_mutex_lock(&acked.lock);
        bool going = acked.ntokens > before_t && (!zones_too || acked.nzones > before_z);
        pthread_mutex_unlock(&acked.lock);
        if (going)
            return true;
        nanosleep(&tick, NULL);
    }
    return false;
}

/* A seeded world, its server started and the installed app logged in, the
 * acknowledged lists empty: the server's pid, or -1 (reported). opts gets
 * the server's options (to start it again). */
static pid_t world_start(struct fixture *fx, struct world *w, int port, char *opts, size_t opts_size)
{
    snprintf(opts, opts_size,
             "--tls-cert '%s/tls/cert.pem' --tls-key '%s/tls/key.pem' --no-dns-deploy --rate-limit 0",
             fx->data, fx->data);
    if (seed(fx, w, port) != 0) {
        check_fail(__func__, "cannot seed a data directory");
        return -1;
    }
    pid_t pid = server_start(fx->bin, w->data, port, opts, fx->log);
    if (pid < 0 || login(fx, w) != 0) {
        if (pid > 0)
            server_stop(pid);
        check_fail(__func__, "cannot start a server and log in");
        return -1;
    }
    acked.tokens = calloc(MAX_ACKED, sizeof *acked.tokens);
    acked.zones = calloc(MAX_ACKED, sizeof *acked.zones);
    acked.ntokens = acked.nzones = 0;
    return pid;
}

int crash_safety(struct fixture *fx)
{
    static struct world w;
    int port = free_port();
    char opts[1024];
    pid_t pid = world_start(fx, &w, port, opts, sizeof opts);
    if (pid < 0)
        return 1;
    int bad = 0;
    struct writer wr[WRITERS];
    memset(wr, 0, sizeof wr);
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    for (int cycle = 0; cycle < CYCLES && !bad; cycle++) {
        if (cycle > 0 && (pid = server_start(fx->bin, w.data, port, opts, fx->log)) < 0) {
            bad |= FAIL("cycle %d: the server does not start again", cycle);
            break;
        }
        int before_t = acked.ntokens, before_z = acked.nzones;
        pthread_t th[WRITERS];
        writers_start(&w, wr, th, cycle);
        /* once both kinds of write are going (a loaded machine may take a
         * while), the kill comes at a random moment */
        writes_flowing(before_t, before_z, true, 10);
        long ms = 100 + rand() % 700;
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        pid = -1;
        writers_stop(th);
        if (acked.ntokens == before_t || acked.nzones == before_z)
            bad |= FAIL("cycle %d: nothing acknowledged in 10 s (tokens %d, zones %d)", cycle,
                        acked.ntokens - before_t, acked.nzones - before_z);
        bad |= verify(&w, cycle);
    }
    if (!bad) {
        pid = server_start(fx->bin, w.data, port, opts, fx->log);
        bad |= pid < 0 ? FAIL("the server does not start after the last kill") : 0;
        if (pid > 0)
            bad |= server_stop(pid) != 0 ? FAIL("unclean stop after the kills") : 0;
    }
    free(acked.tokens);
    free(acked.zones);
    return bad;
}

/* Runs tests/pg/cluster.sh VERB on the suite's cluster; its exit status. */
static int cluster(const char *verb)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "tests/pg/cluster.sh %s '%s' >/dev/null 2>&1", verb, getenv("PARAPET_PG_CLUSTER"));
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* PostgreSQL stopped and started again under write load (PARAPET_PG_CLUSTER:
 * the suite's cluster, tests/pg/run): while it is down every request is
 * answered 503 50300001, none is left without an answer and the server does
 * not exit; once it is back, writes are acknowledged again without a
 * restart of the server; and every write acknowledged before, during or
 * after is stored, whole. */
int pg_restart(struct fixture *fx)
{
    static struct world w;
    char opts[1024];
    pid_t pid = world_start(fx, &w, free_port(), opts, sizeof opts);
    if (pid < 0)
        return 1;
    struct writer wr[WRITERS];
    pthread_t th[WRITERS];
    int bad = 0;
    writers_start(&w, wr, th, 100);
    bad |= !writes_flowing(0, 0, true, 10) ? FAIL("no write acknowledged before the restart") : 0;
    bad |= cluster("stop") != 0 ? FAIL("cannot stop the cluster") : 0;
    /* requests in flight at the stop are answered first, some with a
     * failure of their own (a commit that could not be made durable is
     * 500 50000002): only what is asked after that is counted */
    nanosleep(&(struct timespec){0, 500 * 1000 * 1000}, NULL);
    atomic_store(&unavailable, 0);
    atomic_store(&odd, 0);
    int down_t = acked.ntokens, down_z = acked.nzones;
    sleep(2);
    int during_unavailable = atomic_load(&unavailable), during_odd = atomic_load(&odd);
    bad |= during_unavailable == 0 ? FAIL("no 503 50300001 while the database was down") : 0;
    bad |= during_odd ? FAIL("%d answers other than 503 50300001 while the database was down (the first: %s)",
                             during_odd, first_odd)
                      : 0;
    bad |= acked.ntokens != down_t || acked.nzones != down_z
               ? FAIL("writes acknowledged while the database was down (%d tokens, %d zones)", acked.ntokens - down_t,
                      acked.nzones - down_z)
               : 0;
    bad |= cluster("restart") != 0 ? FAIL("cannot start the cluster again") : 0;
    /* (tokens: the zone writers may have spent their names while it was down) */
    bad |= !writes_flowing(acked.ntokens, acked.nzones, false, 30) ? FAIL("no token issued after the restart") : 0;
    writers_stop(th);
    printf("    pg_restart: %d answers 503 50300001 in 2 s down; %d tokens and %d zones acknowledged in all\n",
           during_unavailable, acked.ntokens, acked.nzones);
    fflush(stdout);
    bad |= kill(pid, 0) != 0 ? FAIL("the server exited") : 0;
    bad |= verify(&w, 0);
    bad |= server_stop(pid) != 0 ? FAIL("unclean stop") : 0;
    free(acked.tokens);
    free(acked.zones);
    return bad;
}
