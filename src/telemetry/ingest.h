/* ingest.h — a batch of telemetry records: decoded (record.h), given their
 * source country (geo.h), attributed (attribute.h) and stored
 * (store_ops.tel_ingest), all in the caller's open write transaction. The
 * first bad record ends the batch: the caller rolls back, so that a batch
 * is stored whole or not at all. */
#ifndef PARAPET_TEL_INGEST_H
#define PARAPET_TEL_INGEST_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

enum tel_format { TEL_NDJSON, TEL_ARRAY };
enum { TEL_MSG_BUF = 512 }; /* room for any ingest message */

/* Decodes, attributes and stores one batch in the store's open write
 * transaction (the caller begins it with s->ops->begin(s, true) and commits
 * or rolls back). 0: stored, *out counts; 1: a bad record, msg says "line N:
 * member: rule" (arrays: "record N: ...") and nothing may be committed;
 * -1: store failure. */
int telemetry_ingest(struct store *s, const char *body, size_t len, enum tel_format fmt, int64_t now,
                     struct tel_ingest_result *out, char *msg, size_t msgsize);

/* The same one record at a time, for callers that stream (parapet ingest). */
struct tel_batch;
struct tel_batch *tel_batch_begin(struct store *s, int64_t now);
/* 0 added; 1 bad record (msg: "member: rule"); -1 store failure. */
int tel_batch_add(struct tel_batch *b, json_t *record, char *msg, size_t msgsize);

/* tel_batch_add in two steps, so that decoding (no store: any thread) can
 * run beside storing: tel_decode fills rec and loc (0, or 1 with msg);
 * tel_batch_add_decoded attributes and adds them, taking what they own
 * whatever it answers. */
struct tel_record;
struct tel_locator;
int tel_decode(json_t *record, int64_t now, struct tel_record *rec, struct tel_locator *loc, char *msg,
               size_t msgsize);
int tel_batch_add_decoded(struct tel_batch *b, struct tel_record *rec, struct tel_locator *loc, char *msg,
                          size_t msgsize);
/* tel_decode of one NDJSON line, text[0..len): read by simdjson
 * (decode_simd.h) when it can, else by jansson, which words every refusal:
 * the same answer either way. 0, or 1 with msg ("member: rule", or "not a
 * JSON object: ..."); loc->waf_entry is the caller's to release. simd may
 * be NULL (jansson alone). */
struct tel_simd;
int tel_decode_line(struct tel_simd *simd, const char *text, size_t len, int64_t now, struct tel_record *rec,
                    struct tel_locator *loc, char *msg, size_t msgsize);
/* On the decoding thread, after tel_decode(_line) took a record: a WAF
 * entry made text (loc->waf_text), so that storing it only adds its domain
 * (it ends as the same text). tel_locator_clear releases what loc owns. */
void tel_decoded_to_text(struct tel_record *rec, struct tel_locator *loc);
void tel_locator_clear(struct tel_locator *loc);
/* Stores what is still buffered and frees the batch (also after a
 * failure, when it only frees): 0 or -1; *out counts the whole batch. */
int tel_batch_end(struct tel_batch *b, bool store_rest, struct tel_ingest_result *out);

#endif
