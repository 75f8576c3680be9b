/* audit.h — the audit log: every committed write through the API leaves one
 * row, in the write's own transaction (so there is no write without its row
 * and no row without its write): who (app, portal, customer, source address,
 * request id), what (route, method, path, the ids of the path and those the
 * answer created, the fields sent with secrets redacted), when, and the
 * status. Read by `parapet admin audit`; kept `serve --audit-days`. The
 * credential endpoints (ROUTE_GUARDED: tokens and codes) are not recorded
 * here: the tokens table is their record. */
#ifndef PARAPET_AUDIT_H
#define PARAPET_AUDIT_H

#include <jansson.h>

#include "core/req.h"

/* Appends r's row in the open write transaction (nothing for a credential
 * endpoint): 0, or -1 (store failed). */
int audit_record(struct req *r);

/* A copy of fields with secret values replaced by "[redacted]" (pure; new
 * reference): members named like secret, password, token or private key,
 * certificate uploads (they carry the key), and any text holding a PEM
 * private key; long texts are cut to 512 characters. */
json_t *audit_redact(const json_t *fields);

#endif
