/* fastnetmon_notify.c — `parapet fastnetmon-notify [--data DIR] [--state DIR]
 * IP DIRECTION PPS ACTION`: FastNetMon 1.2.4's notify script
 * (dataplane/fastnetmon/fnm_notify.h). FastNetMon only logs the exit code,
 * so everything but a usage error or a failing store exits 0 after a line
 * on stderr: another direction than incoming, an unban or attack_details of
 * a ban it never saw, an address no site protects.
 *
 * The state directory (default DATA/fastnetmon/bans) holds one file per
 * banned IP, written through a temporary file and rename(2); the calls of
 * one directory take turns on its .lock (FastNetMon runs them in threads of
 * their own, so a ban and its attack_details may overlap). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "dataplane/fastnetmon/fnm_notify.h"
#include "dataplane/ingest_batch.h"

static const char USAGE[] = "usage: parapet fastnetmon-notify [--data DIR] [--state DIR] IP "
                            "incoming|outgoing|internal|other PPS ban|unban|attack_details\n";

static int make_dirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || !*p) {
            char c = *p;
            *p = '\0';
            if (mkdir(buf, 0700) != 0 && errno != EEXIST) {
                fprintf(stderr, "parapet: fastnetmon-notify: cannot create %s: %s\n", buf, strerror(errno));
                return -1;
            }
            if (!(*p = c))
                return 0;
        }
    }
}

/* The report on stdin, read to its end (FastNetMon writes it whole before
 * it waits for the script). */
static void read_report(struct fnm_report *r)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) > 0)
        fnm_report_line(r, line, (size_t)n - (line[n - 1] == '\n'));
    free(line);
}

/* 1 loaded, 0 no state file, -1 unreadable (reported). */
static int load_state(const char *path, struct fnm_ban *b)
{
    FILE *f = fopen(path, "r");
    if (!f && errno == ENOENT)
        return 0;
    if (!f) {
        fprintf(stderr, "parapet: fastnetmon-notify: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char text[1024];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    if (fnm_ban_load(text, b) != 0) {
        fprintf(stderr, "parapet: fastnetmon-notify: %s is not a ban's state; it is replaced or removed\n",
                path);
        return 0;
    }
    return 1;
}

static int save_state(const char *path, const struct fnm_ban *b)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    char *text = fnm_ban_dump(b);
    FILE *f = text ? fopen(tmp, "w") : NULL;
    int rc = f && fprintf(f, "%s\n", text) > 0 && fflush(f) == 0 && fsync(fileno(f)) == 0 ? 0 : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, path) != 0)
        rc = -1;
    if (rc != 0) {
        fprintf(stderr, "parapet: fastnetmon-notify: cannot write %s: %s\n", path, strerror(errno));
        unlink(tmp);
    }
    free(text);
    return rc;
}

/* Stores the records (NDJSON strings): 0 stored, 1 left out (no site
 * protects the address; reported), -1 the store failed (reported). */
static int store_records(const char *data, json_t *records)
{
    struct store *s = cli_open_store(data);
    if (!s) {
        fprintf(stderr, "parapet: fastnetmon-notify: the store is not available\n");
        return -1;
    }
    long stored = 0, dropped = 0;
    int rc = dp_ingest_records(s, records, (int64_t)time(NULL), "fastnetmon-notify", &stored, &dropped);
    s->ops->close(s);
    if (rc != 0)
        fprintf(stderr, "parapet: fastnetmon-notify: the event could not be stored\n");
    return rc != 0 ? -1 : dropped ? 1 : 0;
}

static void add_record(json_t *records, const struct fnm_ban *b, const char *ip, int64_t end_time)
{
    char *text = fnm_ban_record(b, ip, end_time);
    json_array_append_new(records, json_string(text));
    free(text);
}

/* The action on the state file at `path`, under the directory's lock. */
static int act(const char *data, const char *path, const struct fnm_notify_args *a,
               const struct fnm_report *r)
{
    int64_t now = (int64_t)time(NULL);
    struct fnm_ban b;
    int had = load_state(path, &b);
    if (had < 0)
        return 1;
    json_t *records = json_array();
    int rc = 0;
    if (a->action == FNM_BAN) {
        struct fnm_ban old = b;
        fnm_ban_open(&b, a, r, now);
        /* an unban FastNetMon never sent (it restarted): the old event is closed first
         * (unless it is this one: a ban repeated within the second) */
        if (had && strcmp(old.alert_id, b.alert_id) != 0)
            add_record(records, &old, a->ip, now);
        add_record(records, &b, a->ip, 0);
        int st = store_records(data, records);
        if (st < 0)
            rc = 1;
        else if (st == 0 && save_state(path, &b) != 0)
            rc = 1;
        else if (st > 0)
            unlink(path);
    } else if (!had) {
        fprintf(stderr, "parapet: fastnetmon-notify: %s %s: no ban of this address is known; nothing done\n",
                a->ip, a->action == FNM_UNBAN ? "unban" : "attack_details");
    } else {
        fnm_ban_raise(&b, a, a->action == FNM_ATTACK_DETAILS ? r : NULL);
        add_record(records, &b, a->ip, a->action == FNM_UNBAN ? now : 0);
        int st = store_records(data, records);
        if (st < 0)
            rc = 1;
        else if (a->action == FNM_UNBAN)
            unlink(path);
        else if (save_state(path, &b) != 0)
            rc = 1;
    }
    json_decref(records);
    return rc;
}

int cli_fastnetmon_notify(int argc, char **argv)
{
    static const struct opt opts[] = {{.name = "data"}, {.name = "state"}, {.name = NULL}};
    if (argc < 4) {
        fputs(USAGE, stderr);
        return 2;
    }
    json_t *o = args_parse(argc - 4, argv, opts);
    if (!o) {
        fputs(USAGE, stderr);
        return 2;
    }
    struct fnm_notify_args a;
    char msg[256];
    if (fnm_notify_parse_args(argv + argc - 4, &a, msg, sizeof msg) != 0) {
        fprintf(stderr, "parapet: fastnetmon-notify: %s\n%s", msg, USAGE);
        json_decref(o);
        return 2;
    }
    struct fnm_report r = {0};
    if (a.action != FNM_UNBAN && !isatty(STDIN_FILENO))
        read_report(&r);
    const char *data = arg_str(o, "data") ? arg_str(o, "data") : "./parapet-data";
    char state[4096], path[4200], lock[4200];
    if (arg_str(o, "state"))
        snprintf(state, sizeof state, "%s", arg_str(o, "state"));
    else
        snprintf(state, sizeof state, "%s/fastnetmon/bans", data);
    int rc = 0;
    if (strcmp(a.direction, "incoming") != 0) {
        fprintf(stderr,
                "parapet: fastnetmon-notify: %s %s: only incoming attacks become events; nothing done\n",
                a.ip, a.direction);
    } else if (make_dirs(state) != 0) {
        rc = 1;
    } else {
        snprintf(path, sizeof path, "%s/%s", state, a.ip);
        snprintf(lock, sizeof lock, "%s/.lock", state);
        int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0 || flock(fd, LOCK_EX) != 0) {
            fprintf(stderr, "parapet: fastnetmon-notify: cannot lock %s: %s\n", lock, strerror(errno));
            rc = 1;
        } else {
            rc = act(data, path, &a, &r);
        }
        if (fd >= 0)
            close(fd);
    }
    json_decref(o);
    return rc;
}
