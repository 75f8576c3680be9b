/* access_bw.c — see access_bw.h. */
#include "dataplane/nginx/access_bw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int access_line_parse(const char *line, size_t len, struct access_line *out)
{
    char text[1024], upstream[256];
    if (len >= sizeof text)
        return -1;
    memcpy(text, line, len);
    text[len] = '\0';
    double msec;
    int status, used = 0;
    long long in, out_bytes;
    memset(out, 0, sizeof *out);
    if (sscanf(text, "%lf %255s %d %lld %lld %255s%n", &msec, out->host, &status, &in, &out_bytes, upstream,
               &used) != 6 ||
        text[used] != '\0' || msec < 0 || in < 0 || out_bytes < 0 || status < 100 || status > 999)
        return -1;
    out->time = (int64_t)msec;
    out->in = in;
    out->out = out_bytes;
    out->clean = strcmp(upstream, "-") != 0;
    return 0;
}

static struct bw_minute *find(struct bw_acc *a, const char *site_id, int64_t minute)
{
    for (size_t i = a->n; i-- > 0;) /* the newest minutes are at the end */
        if (a->m[i].minute == minute && strcmp(a->m[i].site_id, site_id) == 0)
            return &a->m[i];
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 16;
        struct bw_minute *grown = realloc(a->m, cap * sizeof *grown);
        if (!grown)
            return NULL;
        a->m = grown;
        a->cap = cap;
    }
    struct bw_minute *m = &a->m[a->n++];
    *m = (struct bw_minute){.minute = minute};
    snprintf(m->site_id, sizeof m->site_id, "%s", site_id);
    return m;
}

void bw_acc_add(struct bw_acc *a, const char *site_id, const struct access_line *l)
{
    struct bw_minute *m = find(a, site_id, l->time - l->time % 60);
    if (!m)
        return;
    m->raw_in += l->in;
    m->raw_out += l->out;
    if (l->clean) {
        m->clean_in += l->in;
        m->clean_out += l->out;
    }
    m->changed = true;
}

size_t bw_acc_take(struct bw_acc *a, const char *node, int64_t keep_after, json_t *records)
{
    size_t taken = 0, kept = 0;
    for (size_t i = 0; i < a->n; i++) {
        struct bw_minute *m = &a->m[i];
        if (m->changed) {
            char line[512];
            snprintf(line, sizeof line,
                     "{\"kind\":\"bandwidth\",\"site_id\":\"%s\",\"time\":%lld,\"node\":\"%s\",\"raw_in\":%lld,"
                     "\"raw_out\":%lld,\"clean_in\":%lld,\"clean_out\":%lld}",
                     m->site_id, (long long)m->minute, node, (long long)(m->raw_in * 8 / 60),
                     (long long)(m->raw_out * 8 / 60), (long long)(m->clean_in * 8 / 60),
                     (long long)(m->clean_out * 8 / 60));
            json_array_append_new(records, json_string(line));
            m->changed = false;
            taken++;
        }
        if (m->minute >= keep_after)
            a->m[kept++] = *m;
    }
    a->n = kept;
    return taken;
}

void bw_acc_retry(struct bw_acc *a)
{
    for (size_t i = 0; i < a->n; i++)
        a->m[i].changed = true;
}

void bw_acc_free(struct bw_acc *a)
{
    free(a->m);
    memset(a, 0, sizeof *a);
}
