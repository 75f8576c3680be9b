/* ingest_batch.c — see ingest_batch.h. */
#include "dataplane/ingest_batch.h"

#include <stdio.h>

#include "base/strbuf.h"
#include "telemetry/ingest.h"

int dp_ingest_records(struct store *s, json_t *records, int64_t now, const char *what, long *stored,
                      long *dropped)
{
    while (json_array_size(records)) {
        struct strbuf body = {0};
        size_t i;
        json_t *r;
        json_array_foreach (records, i, r)
            sb_printf(&body, "%s\n", json_string_value(r));
        struct tel_ingest_result res = {0};
        char msg[TEL_MSG_BUF] = "";
        int rc = s->ops->begin(s, true) == STORE_OK ? 0 : -1;
        if (rc == 0)
            rc = telemetry_ingest(s, sb_text(&body), body.len, TEL_NDJSON, now, &res, msg, sizeof msg);
        sb_free(&body);
        if (rc == 0 && s->ops->commit(s) == STORE_OK) {
            *stored += res.stored;
            return 0;
        }
        s->ops->rollback(s);
        long line = 0;
        if (rc != 1 || sscanf(msg, "line %ld", &line) != 1 || line < 1 || (size_t)line > json_array_size(records))
            return -1;
        fprintf(stderr, "parapet: %s: a record left out: %s\n", what, msg);
        json_array_remove(records, (size_t)line - 1);
        (*dropped)++;
    }
    return 0;
}
