/* console_http.h — answers requests for the web console's files
 * (console/console.h) with its headers: a strict Content-Security-Policy,
 * nosniff, no referrer, no framing, and revalidation by ETag. */
#ifndef PARAPET_CONSOLE_HTTP_H
#define PARAPET_CONSOLE_HTTP_H

#include <microhttpd.h>

#include "core/req.h"

/* Queues the console's answer for r (its path is a console path). */
enum MHD_Result console_http_reply(struct MHD_Connection *conn, struct req *r);

#endif
