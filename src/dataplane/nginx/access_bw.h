/* access_bw.h — nginx's access log as raw and clean bandwidth (pure parts;
 * bw_loop.c follows the log and stores the records).
 *
 * The rendered http{} logs each request as
 *   $msec $server_name $status $request_length $bytes_sent $upstream_addr
 * Raw bandwidth is every request and answer the proxy carried; clean is the
 * part forwarded to and from the backend ($upstream_addr is "-" when nginx
 * answered itself: a WAF or AppShield block, a redirect, an error page of
 * its own). The bytes of each site and minute are summed and sent as a
 * `bandwidth` record of that minute (bits/s over the minute). A minute's
 * record is sent again, with its larger sums, while requests of it keep
 * coming: the ingest keeps the last sample of a site, minute and node. */
#ifndef PARAPET_NGINX_ACCESS_BW_H
#define PARAPET_NGINX_ACCESS_BW_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NGINX_ACCESS_FORMAT "'$msec $server_name $status $request_length $bytes_sent $upstream_addr'"

struct access_line {
    int64_t time;     /* seconds */
    char host[256];   /* the server_name that answered */
    int64_t in, out;  /* request and answer bytes */
    bool clean;       /* forwarded to the backend */
};

/* 0, or -1 when the line is not of NGINX_ACCESS_FORMAT. */
int access_line_parse(const char *line, size_t len, struct access_line *out);

/* The sums of each site and minute seen lately. */
struct bw_minute {
    char site_id[24];
    int64_t minute;
    int64_t raw_in, raw_out, clean_in, clean_out; /* bytes */
    bool changed; /* since its record was last taken */
};
struct bw_acc {
    struct bw_minute *m;
    size_t n, cap;
};

void bw_acc_add(struct bw_acc *a, const char *site_id, const struct access_line *l);
/* Appends a `bandwidth` record (NDJSON text, as a JSON string) of `node`
 * to records for each minute changed since the last call; drops minutes
 * older than `keep_after`. Returns how many were appended. */
size_t bw_acc_take(struct bw_acc *a, const char *node, int64_t keep_after, json_t *records);
/* Marks every minute changed again (its record could not be stored). */
void bw_acc_retry(struct bw_acc *a);
void bw_acc_free(struct bw_acc *a);

#endif
