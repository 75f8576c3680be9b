/* ingest.c — see ingest.h. Records are handed to the store in chunks, so
 * that a batch of any size needs little memory. */
#include "telemetry/ingest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/metrics.h"
#include "telemetry/attribute.h"
#include "telemetry/decode_simd.h"
#include "telemetry/geo.h"
#include "telemetry/record.h"

enum { CHUNK = 2048 };

struct tel_batch {
    struct store *s;
    int64_t now;
    struct tel_attributor *attr;
    struct tel_record recs[CHUNK];
    size_t n;
    struct tel_ingest_result total;
};

struct tel_batch *tel_batch_begin(struct store *s, int64_t now)
{
    struct tel_batch *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->s = s;
    b->now = now;
    if (!(b->attr = tel_attributor_new(s))) {
        free(b);
        return NULL;
    }
    return b;
}

static void clear_chunk(struct tel_batch *b)
{
    for (size_t i = 0; i < b->n; i++)
        tel_record_clear(&b->recs[i]);
    b->n = 0;
}

static int flush(struct tel_batch *b)
{
    if (b->n == 0)
        return 0;
    struct tel_ingest_result r = {0};
    int rc = b->s->ops->tel_ingest(b->s, b->recs, b->n, &r);
    clear_chunk(b);
    if (rc != STORE_OK)
        return -1;
    b->total.stored += r.stored;
    b->total.duplicates += r.duplicates;
    return 0;
}

static void key_addr(const uint8_t key[TEL_ADDR_KEY], struct ip_addr *a)
{
    memset(a, 0, sizeof *a);
    a->family = key[0];
    memcpy(a->b, key + 1, 16);
}

/* The source country from the database when the record gave none. */
static void fill_country(struct tel_record *rec, struct tel_locator *loc)
{
    struct ip_addr a;
    if (rec->kind == TEL_FLOW && !rec->u.flow.country[0]) {
        key_addr(rec->u.flow.src, &a);
        geo_country(&a, rec->u.flow.country);
    } else if (rec->kind == TEL_WAF_LOG && !rec->u.waf.country[0]) {
        json_t *src = json_object_get(loc->waf_entry, "src_ip");
        if (src && ip_parse(json_string_value(src), &a) == 0) {
            geo_country(&a, rec->u.waf.country);
            json_object_set_new(loc->waf_entry, "src_ip_cc", json_string(rec->u.waf.country));
        }
    }
}

int tel_decode(json_t *record, int64_t now, struct tel_record *rec, struct tel_locator *loc, char *msg,
               size_t msgsize)
{
    if (tel_record_decode(record, now, rec, loc, msg, msgsize) != 0)
        return 1;
    fill_country(rec, loc);
    return 0;
}

int tel_decode_line(struct tel_simd *simd, const char *text, size_t len, int64_t now, struct tel_record *rec,
                    struct tel_locator *loc, char *msg, size_t msgsize)
{
    struct tel_fields fields;
    if (simd && tel_simd_fields(simd, text, len, &fields) == 0) {
        if (tel_record_decode_fields(&fields, now, rec, loc, msg, msgsize) == 0) {
            fill_country(rec, loc);
            return 0;
        }
        json_decref(loc->waf_entry); /* refused: jansson says why, in its words */
    }
    json_error_t je;
    json_t *v = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!v) {
        memset(loc, 0, sizeof *loc);
        snprintf(msg, msgsize, "not a JSON object: %s", je.text);
        return 1;
    }
    int rc = tel_decode(v, now, rec, loc, msg, msgsize);
    json_decref(v);
    return rc;
}

void tel_decoded_to_text(struct tel_record *rec, struct tel_locator *loc)
{
    if (rec->kind != TEL_WAF_LOG || !loc->waf_entry)
        return;
    json_t *path = json_object_get(loc->waf_entry, "http_path");
    char *text = json_dumps(loc->waf_entry, JSON_COMPACT);
    char *text_path = strdup(json_string_value(path));
    if (!text || !text_path) {
        free(text); /* out of memory: it stays an object */
        free(text_path);
        return;
    }
    loc->waf_text = text;
    loc->waf_path = text_path;
    json_decref(loc->waf_entry);
    loc->waf_entry = NULL;
}

void tel_locator_clear(struct tel_locator *loc)
{
    json_decref(loc->waf_entry);
    free(loc->waf_text);
    free(loc->waf_path);
    loc->waf_entry = NULL;
    loc->waf_text = loc->waf_path = NULL;
}

/* Whether jansson writes s as itself between quotes (no escapes). */
static bool plain_json_text(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f || *s == '"' || *s == '\\')
            return false;
    return true;
}

/* The entry's text with its domain added, as jansson would have written
 * the object with them (the members last). NULL out of memory. */
static char *entry_with_domain(char *text, const char *domain, const char *domain_id)
{
    if (plain_json_text(domain) && plain_json_text(domain_id)) {
        size_t n = strlen(text), size = n + strlen(domain) + strlen(domain_id) + 32;
        char *out = realloc(text, size);
        if (!out)
            return NULL;
        snprintf(out + n - 1, size - (n - 1), ",\"domain\":\"%s\",\"domain_id\":\"%s\"}", domain, domain_id);
        return out;
    }
    json_t *o = json_loads(text, 0, NULL);
    char *out = NULL;
    if (o && json_object_set_new(o, "domain", json_string(domain)) == 0 &&
        json_object_set_new(o, "domain_id", json_string(domain_id)) == 0)
        out = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    free(text);
    return out;
}

int tel_batch_add_decoded(struct tel_batch *b, struct tel_record *in, struct tel_locator *loc, char *msg,
                          size_t msgsize)
{
    struct tel_record *rec = &b->recs[b->n];
    *rec = *in; /* the batch owns it from here */
    int rc = tel_attribute(b->attr, rec, loc, msg, msgsize);
    if (rc < 0)
        snprintf(msg, msgsize, "the store is not available");
    if (rc == 0 && rec->kind == TEL_WAF_LOG && loc->waf_text) {
        rec->u.waf.entry = entry_with_domain(loc->waf_text, rec->u.waf.domain_name, loc->domain_id);
        rec->u.waf.path = loc->waf_path;
        loc->waf_text = loc->waf_path = NULL;
        if (!rec->u.waf.entry) {
            rc = -1;
            snprintf(msg, msgsize, "out of memory");
        }
    } else if (rc == 0 && rec->kind == TEL_WAF_LOG) {
        json_t *path = json_object_get(loc->waf_entry, "http_path");
        rec->u.waf.entry = json_dumps(loc->waf_entry, JSON_COMPACT);
        rec->u.waf.path = strdup(json_string_value(path));
        if (!rec->u.waf.entry || !rec->u.waf.path) {
            rc = -1;
            snprintf(msg, msgsize, "out of memory");
        }
    }
    tel_locator_clear(loc);
    if (rc != 0) {
        tel_record_clear(rec);
        return rc;
    }
    b->total.records++;
    if (++b->n == CHUNK && flush(b) != 0) {
        snprintf(msg, msgsize, "the store could not save the records");
        return -1;
    }
    return 0;
}

int tel_batch_add(struct tel_batch *b, json_t *record, char *msg, size_t msgsize)
{
    struct tel_record rec;
    struct tel_locator loc;
    if (tel_decode(record, b->now, &rec, &loc, msg, msgsize) != 0) {
        json_decref(loc.waf_entry);
        return 1;
    }
    return tel_batch_add_decoded(b, &rec, &loc, msg, msgsize);
}

int tel_batch_end(struct tel_batch *b, bool store_rest, struct tel_ingest_result *out)
{
    int rc = store_rest ? flush(b) : 0;
    struct tel_ingest_result none;
    if (store_rest && rc == 0 && b->s->ops->tel_ingest(b->s, NULL, 0, &none) != STORE_OK)
        rc = -1; /* the batch's end: what the store kept is written (store.h) */
    clear_chunk(b);
    if (out)
        *out = b->total;
    tel_attributor_free(b->attr);
    free(b);
    return rc;
}

/* One record of the body: 0 added, else rc of tel_batch_add (msg
 * prefixed with where it is). */
static int add_one(struct tel_batch *b, json_t *v, const char *where, long pos, char *msg, size_t msgsize)
{
    char why[TEL_MSG_MAX];
    int rc = tel_batch_add(b, v, why, sizeof why);
    if (rc != 0)
        snprintf(msg, msgsize, "%s %ld: %s", where, pos, why);
    return rc;
}

static int ingest_lines(struct tel_batch *b, struct tel_simd *simd, const char *body, size_t len, char *msg,
                        size_t msgsize)
{
    long line = 0;
    for (size_t at = 0; at < len;) {
        const char *start = body + at, *nl = memchr(start, '\n', len - at);
        size_t n = nl ? (size_t)(nl - start) : len - at;
        at += n + (nl ? 1 : 0);
        line++;
        size_t blank = 0;
        while (blank < n && (start[blank] == ' ' || start[blank] == '\t' || start[blank] == '\r'))
            blank++;
        if (blank == n)
            continue;
        struct tel_record rec;
        struct tel_locator loc;
        char why[TEL_MSG_MAX];
        int rc = tel_decode_line(simd, start, n, b->now, &rec, &loc, why, sizeof why);
        if (rc == 0)
            rc = tel_batch_add_decoded(b, &rec, &loc, why, sizeof why);
        else
            json_decref(loc.waf_entry);
        if (rc != 0) {
            snprintf(msg, msgsize, "line %ld: %s", line, why);
            return rc;
        }
    }
    return 0;
}

static int ingest_array(struct tel_batch *b, const char *body, size_t len, char *msg, size_t msgsize)
{
    json_error_t je;
    json_t *all = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
    if (!all || !json_is_array(all)) {
        if (all)
            snprintf(msg, msgsize, "body: must be a JSON array of records (or NDJSON as application/x-ndjson)");
        else
            snprintf(msg, msgsize, "body is not valid JSON: %s (line %d, column %d)", je.text, je.line, je.column);
        json_decref(all);
        return 1;
    }
    int rc = 0;
    for (size_t i = 0; i < json_array_size(all) && rc == 0; i++)
        rc = add_one(b, json_array_get(all, i), "record", (long)i + 1, msg, msgsize);
    json_decref(all);
    return rc;
}

int telemetry_ingest(struct store *s, const char *body, size_t len, enum tel_format fmt, int64_t now,
                     struct tel_ingest_result *out, char *msg, size_t msgsize)
{
    struct tel_batch *b = tel_batch_begin(s, now);
    if (!b) {
        snprintf(msg, msgsize, "out of memory");
        return -1;
    }
    int rc;
    if (fmt == TEL_NDJSON) {
        struct tel_simd *simd = tel_simd_new(); /* NULL: jansson alone */
        rc = ingest_lines(b, simd, body, len, msg, msgsize);
        tel_simd_free(simd);
    } else {
        rc = ingest_array(b, body, len, msg, msgsize);
    }
    if (tel_batch_end(b, rc == 0, out) != 0 && rc == 0) {
        snprintf(msg, msgsize, "the store could not save the records");
        rc = -1;
    }
    if (rc >= 0 && out) /* counted before the caller commits: close enough for rates */
        metrics_ingest(out->records, out->stored, out->duplicates, rc == 1);
    return rc;
}
