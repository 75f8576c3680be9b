/* audit.h — the audit log: every committed write through the API leaves one
 * row, in the write's own transaction (so there is no write without its
 * row): who (app, portal, customer, source address, request id), what
 * (route, method, path, the ids of the path and those the answer created,
 * the fields sent with secrets redacted, and each changed member of the
 * resources it loaded, before -> after), when, and the status. A write
 * refused after authentication leaves a row too (its own transaction,
 * after the rollback). Read by `parapet admin audit`; kept `serve --audit-days`. The
 * credential endpoints (ROUTE_GUARDED: tokens and codes) are not recorded
 * here: the tokens table is their record. */
#ifndef PARAPET_AUDIT_H
#define PARAPET_AUDIT_H

#include <jansson.h>

#include "core/req.h"

/* Appends r's row in the open write transaction (nothing for a credential
 * endpoint): 0, or -1 (store failed). */
int audit_record(struct req *r);

/* Write requests: makes the row's "changes" (the fields sent, redacted, as
 * text) before the write transaction, on the thread that checked the
 * fields, so that the one thread that runs writes (server/write_lane.h)
 * does not; audit_record and audit_record_refused use it. */
void audit_prepare(struct req *r);

/* Write requests: keeps a copy of a resource the request loaded, as it was
 * before the handler changed it (once per resource), so that the request's
 * row tells each changed member before -> after. */
void audit_note_before(struct req *r, const struct resource *res);

/* The row of a refused write (status >= 400 after authentication, its
 * changes rolled back): appended in a transaction of its own; 0, or -1. */
int audit_record_refused(struct req *r);

/* What changed between two documents of a resource: {"<member>": {"before":
 * v, "after": v}} for each member that differs (absent: null), secrets
 * redacted as audit_redact does (pure; new reference). */
json_t *audit_doc_diff(const json_t *before, const json_t *after);

/* A copy of fields with secret values replaced by "[redacted]" (pure; new
 * reference): members named like secret, password, token or private key,
 * certificate uploads (they carry the key), and any text holding a PEM
 * private key; long texts are cut to 512 characters. */
json_t *audit_redact(const json_t *fields);

#endif
