/* fnm_notify.h — FastNetMon 1.2.4's notify script as `ddos_event` records
 * (pure parts; src/cli/fastnetmon_notify.c reads stdin, keeps the state
 * file and stores the records).
 *
 * FastNetMon runs `SCRIPT <ip> <incoming|outgoing|internal|other> <pps>
 * <ban|unban|attack_details>` through popen(); on ban and attack_details a
 * text report of `Key: value` lines comes on stdin (fast_library.cpp,
 * serialize_attack_description), then a packet or flow dump. A ban opens an
 * event (its id and start kept in a state file per IP), attack_details
 * re-sends it with the larger peaks, unban re-sends it with end_time. */
#ifndef PARAPET_FNM_NOTIFY_H
#define PARAPET_FNM_NOTIFY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fnm_action { FNM_BAN, FNM_UNBAN, FNM_ATTACK_DETAILS };

struct fnm_notify_args {
    char ip[48];        /* canonical text (inet_ntop) */
    char direction[16]; /* incoming, outgoing, internal, other */
    int64_t pps;        /* the first detected rate */
    enum fnm_action action;
};

/* The four arguments FastNetMon passes: 0, or -1 with msg naming the bad one. */
int fnm_notify_parse_args(char *const argv[4], struct fnm_notify_args *out, char *msg, size_t msg_len);

/* What the report tells (fields left 0 / "" when its line is absent). */
struct fnm_report {
    char attack_type[32]; /* FastNetMon's name: syn_flood, udp_flood, ... */
    int64_t initial_pps, peak_pps;
    int64_t in_mbps; /* "Total incoming traffic: N mbps" (decimal megabits) */
};

/* Takes one line of the report (without its newline); others are ignored. */
void fnm_report_line(struct fnm_report *r, const char *line, size_t len);
/* The whole report at once (tests; the CLI feeds lines as they come). */
void fnm_report_parse(struct fnm_report *r, const char *text, size_t len);

/* parapet's attack type (telemetry/record.c's list) for FastNetMon's name. */
const char *fnm_attack_type(const char *fnm_name);

/* One ban, as kept in the state file between the calls. */
struct fnm_ban {
    char alert_id[72];
    int64_t start_time;
    char attack_type[32]; /* parapet's */
    int64_t max_pps, max_bps;
};

/* A new ban of args->ip at now: id fnm-<ip>-<now>. */
void fnm_ban_open(struct fnm_ban *b, const struct fnm_notify_args *args, const struct fnm_report *r,
                  int64_t now);
/* Raises b's peaks with what the arguments and a report (NULL: none) show. */
void fnm_ban_raise(struct fnm_ban *b, const struct fnm_notify_args *args, const struct fnm_report *r);
/* The `ddos_event` record (one NDJSON line, malloc'd) of b toward ip;
 * end_time 0: ongoing. */
char *fnm_ban_record(const struct fnm_ban *b, const char *ip, int64_t end_time);

/* The state file's text (JSON, malloc'd) and back (0, or -1 when it is not one). */
char *fnm_ban_dump(const struct fnm_ban *b);
int fnm_ban_load(const char *text, struct fnm_ban *b);

#endif
