/* test_fnm_graphite_loop.c — dataplane/fastnetmon/fnm_graphite_loop.h on
 * loopback with a real SQLite store: Graphite lines sent as FastNetMon
 * sends them (a connection per write, lines split across writes) become
 * stored flows of the protected host; a host no site protects is left out. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "api/op/op_kinds.h"
#include "dataplane/fastnetmon/fnm_graphite_loop.h"
#include "store/select/select.h"
#include "store/sqlite/sqlite.h"
#include "unit.h"

static char dir[64], db[128];

static void make_store(void)
{
    snprintf(dir, sizeof dir, "/tmp/parapet-fnmg-XXXXXX");
    if (!mkdtemp(dir))
        abort();
    snprintf(db, sizeof db, "%s/t.db", dir);
    struct store *s = sqlite_store_open(db);
    if (!s)
        abort();
    s->ops->begin(s, true);
    struct portal p = {.id = "p000000000000001", .name = "P"};
    struct customer c = {.id = "c000000000000001", .portal_id = "p000000000000001", .name = "C"};
    struct resource r = {0};
    snprintf(r.customer_id, sizeof r.customer_id, "c000000000000001");
    snprintf(r.name, sizeof r.name, "site");
    r.doc = json_object();
    struct cidr block;
    if (s->ops->portal_create(s, &p) || s->ops->customer_create(s, &c) ||
        s->ops->res_create(s, &OP_SITE, &r) || cidr_parse("10.0.0.0/24", 0, &block) != 0 ||
        s->ops->blocks_set(s, r.rid, &block, 1) != STORE_OK || s->ops->commit(s) != STORE_OK)
        abort();
    resource_clear(&r);
    s->ops->close(s);
}

static const char *query(const char *sql)
{
    static char out[512];
    sqlite3 *h;
    sqlite3_stmt *st;
    out[0] = '\0';
    if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        abort();
    sqlite3_busy_timeout(h, 2000);
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
            snprintf(out, sizeof out, "%s", (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

/* One connection, the text in `parts` writes, then closed (as FastNetMon does). */
static void send_text(int port, const char *text, int parts)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
        abort();
    size_t len = strlen(text), step = len / (size_t)parts + 1;
    for (size_t off = 0; off < len; off += step) {
        size_t n = len - off < step ? len - off : step;
        if (write(fd, text + off, n) != (ssize_t)n)
            abort();
        usleep(20000);
    }
    close(fd);
}

static const char FLOWS[] =
    "SELECT count(*) || ' ' || group_concat(ts || '/' || router || '/' || bytes || '/' || "
    "packets || '/' || protocol || '/' || action, ',') FROM tel_flows";

TEST(lines_to_stored_flows)
{
    make_store();
    struct store_config cfg = {.backend = "sqlite", .path = db};
    CHECK_INT(fnm_graphite_start("127.0.0.1:0", &cfg), 0);
    int port = fnm_graphite_port();
    CHECK(port > 0);
    CHECK_INT(fnm_graphite_start("127.0.0.1:0", &cfg), -1); /* one at a time */

    /* this minute; a line grace_s into the next one completes it (the clock would take a minute) */
    int64_t now = (int64_t)time(NULL), m = now - now % 60;
    /* both pushes in one write: the loop may store a complete minute between two reads */
    char text[2048];
    size_t off = 0;
    for (int push = 0; push < 2; push++) {
        long long t = (long long)(m + 10 * push);
        off += (size_t)snprintf(text + off, sizeof text - off,
                                "fastnetmon.total.incoming.pps 5000 %lld\n"
                                "fastnetmon.hosts.10_0_0_5.incoming.average.pps 1000 %lld\n"
                                "fastnetmon.hosts.10_0_0_5.incoming.average.bps 8000000 %lld\n"
                                "fastnetmon.hosts.10_0_0_5.outgoing.average.pps 3 %lld\n"
                                "fastnetmon.hosts.192_0_2_99.incoming.average.pps 50 %lld\n"
                                "not a graphite line\n",
                                t, t, t, t, t);
    }
    send_text(port, text, 1);
    snprintf(text, sizeof text, "fastnetmon.total.incoming.pps 5000 %lld\n", (long long)(m + 65));
    send_text(port, text, 1);
    /* the loop stores every second */
    const char *got = "";
    for (int i = 0; i < 50; i++) {
        got = query(FLOWS);
        if (strncmp(got, "1 ", 2) == 0)
            break;
        usleep(100000);
    }
    char want[256];
    /* 2 pushes: 1000 pps → 60,000 packets; 8 Mbit/s → 60,000,000 bytes */
    snprintf(want, sizeof want, "1 %lld/fastnetmon/60000000/60000/0/0", (long long)m);
    CHECK_STR(got, want);

    /* the minute in progress is stored at stop; lines split across writes, two connections */
    for (int i = 0; i < 2; i++) {
        snprintf(text, sizeof text,
                 "fastnetmon.total.incoming.pps 5000 %lld\nfastnetmon.hosts.10_0_0_6.incoming.average.pps 2 "
                 "%lld\n",
                 (long long)(m + 65), (long long)(m + 65));
        send_text(port, text, 5);
    }
    usleep(300000);
    fnm_graphite_stop();
    CHECK_INT(fnm_graphite_port(), 0);
    /* 2 packets/s in 2 of the 2 pushes: 120 */
    CHECK_STR(query("SELECT count(*) || '/' || sum(packets) FROM tel_flows"), "2/60120");
    fnm_graphite_stop(); /* twice: nothing */

    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        abort();
}

TEST(bad_listen)
{
    struct store_config cfg = {.backend = "sqlite", .path = "/nonexistent/x.db"};
    CHECK_INT(fnm_graphite_start("localhost:2003", &cfg), -1);
    CHECK_INT(fnm_graphite_start("127.0.0.1", &cfg), -1);
    CHECK_INT(fnm_graphite_start("127.0.0.1:99999", &cfg), -1);
    CHECK_INT(fnm_graphite_start("192.0.2.1:2003", &cfg), -1); /* not an address of this machine */
    CHECK_INT(fnm_graphite_port(), 0);
}

UNIT_MAIN(UNIT_CASE(lines_to_stored_flows), UNIT_CASE(bad_listen))
