/* capture_agent.c — `parapet capture-agent`: carries out the capture tasks
 * clients queue with POST {OPS}/capture_package. It opens the data
 * directory's store directly, like `parapet admin` (so only the operator,
 * who may read DATA, can run it: that is its authentication), claims the
 * oldest queued task (status 2), captures up to `length` packets sent to
 * the task's dest_ip — live from --interface IF, or replayed from --pcap
 * FILE — with libpcap and the filter "dst net <dest_ip>", stores them as
 * DATA/captures/<customer>-<task>.pcap, and completes the task (status 0).
 * A capture that fails puts its task back in the queue. */
#include <errno.h>
#include <jansson.h>
#include <pcap/pcap.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "api/op/capture_queue.h"
#include "cli/args.h"
#include "cli/cli.h"

struct agent {
    const char *data, *interface, *pcap_file;
    long timeout_s;  /* live captures stop after this long, whatever they caught */
    long interval_s; /* idle poll interval */
    bool once;       /* carry out what is queued, then exit */
};

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
    (void)sig;
    stopping = 1;
}

static pcap_t *open_source(const struct agent *a, char err[PCAP_ERRBUF_SIZE])
{
    if (a->pcap_file)
        return pcap_open_offline(a->pcap_file, err);
    pcap_t *p = pcap_create(a->interface, err);
    if (!p)
        return NULL;
    pcap_set_snaplen(p, OP_CAPTURE_SNAPLEN);
    pcap_set_timeout(p, 500); /* ms: lets the loop check its deadline */
    pcap_set_immediate_mode(p, 1);
    int rc = pcap_activate(p);
    if (rc < 0) {
        snprintf(err, PCAP_ERRBUF_SIZE, "%s: %s", a->interface, pcap_geterr(p));
        pcap_close(p);
        return NULL;
    }
    return p;
}

/* Captures into `path` (via a temporary name); the number of packets, or
 * -1 with err set. */
static long capture(const struct agent *a, const char *dest, long length, const char *path,
                    char err[PCAP_ERRBUF_SIZE])
{
    pcap_t *p = open_source(a, err);
    if (!p)
        return -1;
    char filter[128], tmp[4200];
    struct bpf_program prog;
    snprintf(filter, sizeof filter, "dst net %s", dest);
    if (pcap_compile(p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) != 0 || pcap_setfilter(p, &prog) != 0) {
        snprintf(err, PCAP_ERRBUF_SIZE, "filter '%s': %s", filter, pcap_geterr(p));
        pcap_close(p);
        return -1;
    }
    pcap_freecode(&prog);
    snprintf(tmp, sizeof tmp, "%s.part", path);
    pcap_dumper_t *d = pcap_dump_open(p, tmp);
    if (!d) {
        snprintf(err, PCAP_ERRBUF_SIZE, "%s", pcap_geterr(p));
        pcap_close(p);
        return -1;
    }
    time_t deadline = time(NULL) + a->timeout_s;
    long packets = 0;
    int rc = 0;
    while (packets < length && !stopping && pcap_dump_ftell64(d) < OP_CAPTURE_MAX_FILE) {
        struct pcap_pkthdr *h;
        const u_char *bytes;
        rc = pcap_next_ex(p, &h, &bytes);
        if (rc == 1) {
            pcap_dump((u_char *)d, h, bytes);
            packets++;
        } else if (rc == 0 && time(NULL) >= deadline) {
            break; /* live: the time is up */
        } else if (rc < 0) {
            break; /* -2: the end of the file; -1: an error */
        }
    }
    if (rc == -1)
        snprintf(err, PCAP_ERRBUF_SIZE, "%s", pcap_geterr(p));
    bool ok = pcap_dump_flush(d) == 0 && rc != -1 && !stopping;
    pcap_dump_close(d);
    pcap_close(p);
    if (ok && rename(tmp, path) != 0) {
        snprintf(err, PCAP_ERRBUF_SIZE, "%.160s: %.60s", path, strerror(errno));
        ok = false;
    }
    if (!ok) {
        if (stopping)
            snprintf(err, PCAP_ERRBUF_SIZE, "stopped");
        unlink(tmp);
        return -1;
    }
    return packets;
}

/* Claims and carries out one task: 1 done, 0 nothing queued, -1 failed. */
static int run_one(struct store *s, const struct agent *a)
{
    struct resource task;
    int rc = op_capture_claim(s, &task);
    if (rc == STORE_NOT_FOUND)
        return 0;
    if (rc == STORE_CONFLICT) /* another agent took it meanwhile */
        return 1;
    if (rc != STORE_OK) {
        fprintf(stderr, "parapet capture-agent: the store failed\n");
        return -1;
    }
    const char *dest = json_string_value(json_object_get(task.doc, "dest_ip"));
    long length = (long)json_integer_value(json_object_get(task.doc, "length"));
    char name[256], path[4096], err[PCAP_ERRBUF_SIZE] = "";
    op_capture_file_name(name, sizeof name, task.customer_id, task.id);
    snprintf(path, sizeof path, "%s/%s", a->data, name);
    long packets = capture(a, dest ? dest : "", length, path, err);
    rc = op_capture_finish(s, &task, packets >= 0 ? name : NULL, packets);
    if (packets >= 0 && rc != STORE_OK) /* e.g. its site was deleted meanwhile */
        unlink(path);
    json_t *line = json_pack("{s:s,s:s,s:s,s:I}", "api_task_id", task.id, "dest_ip", dest ? dest : "",
                             "result", packets >= 0 && rc == STORE_OK ? "completed" : "queued again",
                             "packets", (json_int_t)(packets > 0 ? packets : 0));
    if (packets < 0)
        json_object_set_new(line, "error", json_string(err));
    char *text = json_dumps(line, JSON_COMPACT);
    printf("%s\n", text ? text : "{}");
    fflush(stdout);
    free(text);
    json_decref(line);
    resource_clear(&task);
    return packets >= 0 && rc == STORE_OK ? 1 : -1;
}

static const struct opt agent_opts[] = {
    {.name = "data"},     {.name = "interface"},          {.name = "pcap"}, {.name = "timeout"},
    {.name = "interval"}, {.name = "once", .flag = true}, {.name = NULL}};

static void usage(void)
{
    fputs("usage: parapet capture-agent [--data DIR] (--interface IF | --pcap FILE) [--once]\n"
          "                             [--timeout SECONDS] [--interval SECONDS]\n"
          "  Carries out queued capture tasks (POST .../op/site/{site_id}/capture_package):\n"
          "  up to `length` packets to the task's dest_ip, live from IF (at most --timeout\n"
          "  seconds each, default 60) or replayed from a pcap FILE; --once exits when the\n"
          "  queue is empty, otherwise it polls every --interval seconds (default 2).\n",
          stderr);
}

static long number(json_t *a, const char *name, long fallback)
{
    const char *v = arg_str(a, name);
    char *end;
    long n = v ? strtol(v, &end, 10) : fallback;
    return v && (*end || n < 1) ? -1 : n;
}

int cli_capture_agent(int argc, char **argv)
{
    json_t *a = args_parse(argc, argv, agent_opts);
    if (!a)
        return 2;
    struct agent ag = {
        .data = arg_str(a, "data") ? arg_str(a, "data") : "./parapet-data",
        .interface = arg_str(a, "interface"),
        .pcap_file = arg_str(a, "pcap"),
        .timeout_s = number(a, "timeout", 60),
        .interval_s = number(a, "interval", 2),
        .once = arg_flag(a, "once"),
    };
    if (!ag.interface == !ag.pcap_file || ag.timeout_s < 0 || ag.interval_s < 0) {
        usage();
        json_decref(a);
        return 2;
    }
    char dir[4096];
    /* the server's data only: a mistyped --data would otherwise get a new,
     * empty store (or directory) and the agent would wait for tasks that
     * never come */
    struct store_config cfg;
    cli_store_config(ag.data, &cfg);
    if (access(strcmp(cfg.backend, "sqlite") == 0 ? cfg.path : ag.data, R_OK | W_OK) != 0) {
        fprintf(stderr, "parapet capture-agent: %s: no parapet data here (%s); give the server's --data\n",
                ag.data, strerror(errno));
        json_decref(a);
        return 1;
    }
    struct store *s = cli_open_store(ag.data);
    data_path(dir, sizeof dir, ag.data, OP_CAPTURE_DIR);
    if (!s || (mkdir(dir, 0700) != 0 && errno != EEXIST)) {
        fprintf(stderr, "parapet capture-agent: cannot use %s\n", s ? dir : ag.data);
        if (s)
            s->ops->close(s);
        json_decref(a);
        return 1;
    }
    char err[PCAP_ERRBUF_SIZE] = "";
    pcap_t *probe = open_source(&ag, err); /* a source that cannot work fails now, not per task */
    if (!probe) {
        fprintf(stderr, "parapet capture-agent: %s\n", err);
        s->ops->close(s);
        json_decref(a);
        return 1;
    }
    pcap_close(probe);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    int rc = 0;
    while (!stopping) {
        int done = run_one(s, &ag);
        if (done < 0 && ag.once) {
            rc = 1;
            break;
        }
        if (done == 0 && ag.once)
            break;
        if (done <= 0)
            sleep((unsigned)ag.interval_s);
    }
    s->ops->close(s);
    json_decref(a);
    return rc;
}
