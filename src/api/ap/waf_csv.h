/* waf_csv.h — a WAF event's download (doc 002; docs/decisions.md,
 * "Download"): its CSV columns, and the row of one log entry from the
 * entry's stored text. Nothing here touches a request or the store
 * (tests/unit/test_waf_csv.c). */
#ifndef PARAPET_API_AP_WAF_CSV_H
#define PARAPET_API_AP_WAF_CSV_H

#include "base/strbuf.h"

/* The header line (CRLF-terminated). */
void ap_waf_csv_header(struct strbuf *b);
/* Appends the entry's row (CRLF-terminated): its members by column, its
 * time as text (UTC); nothing when the text is not a JSON object. Read by
 * base/json_flat when it can, by jansson otherwise: the same row. */
void ap_waf_csv_row(struct strbuf *b, const char *entry);
/* The same row read by jansson alone (the reference of the tests). */
void ap_waf_csv_row_json(struct strbuf *b, const char *entry);

#endif
