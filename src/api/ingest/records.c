/* records.c — POST /ingest/v1/records: one batch of telemetry records, NDJSON
 * or a JSON array, stored whole in the request's transaction or refused
 * whole (the dispatcher rolls back on an error reply). */
#include <time.h>

#include "api/ingest/ingest.h"
#include "telemetry/ingest.h"

int ingest_records(struct req *r)
{
    if (!r->body_raw || r->body_raw_len == 0)
        return reply_error(r, E_FIELD_MISSING, "body: a batch of records is required (NDJSON or a JSON array)");
    char msg[TEL_MSG_BUF];
    struct tel_ingest_result res;
    enum tel_format fmt = r->body_kind == BODY_NDJSON ? TEL_NDJSON : TEL_ARRAY;
    int rc = telemetry_ingest(r->store, r->body_raw, r->body_raw_len, fmt, (int64_t)time(NULL), &res, msg,
                              sizeof msg);
    if (rc > 0)
        return reply_error(r, E_RECORD_INVALID, "%s", msg);
    if (rc < 0)
        return reply_error(r, E_STORE, "the records could not be stored");
    return reply_result(r, json_pack("{s:I,s:I,s:I}", "records", (json_int_t)res.records, "stored",
                                     (json_int_t)res.stored, "duplicates", (json_int_t)res.duplicates));
}
