/* console_http.c — see console_http.h. */
#include "server/console_http.h"

#include <stdlib.h>

#include "console/console.h"

enum MHD_Result console_http_reply(struct MHD_Connection *conn, struct req *r)
{
    const char *inm = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    struct console_file f;
    console_lookup(r->path, r->method == M_GET || r->method == M_HEAD, inm, &f);
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        f.len, (void *)f.body, f.owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    if (!resp) {
        if (f.owned)
            free((void *)f.body);
        return MHD_NO;
    }
    if (f.type && f.status != 304)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, f.type);
    if (f.etag[0])
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, f.etag);
    if (f.location)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_LOCATION, f.location);
    if (f.status == 405)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    /* revalidated on each load (a 304 while unchanged): an upgraded
     * server never runs an old console against a new API */
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    MHD_add_response_header(resp, "Content-Security-Policy", CONSOLE_CSP);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(resp, "X-Frame-Options", "DENY");
    MHD_add_response_header(resp, "Cross-Origin-Opener-Policy", "same-origin");
    MHD_add_response_header(resp, "Cross-Origin-Resource-Policy", "same-origin");
    MHD_add_response_header(resp, "Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    r->status = f.status;
    enum MHD_Result ok = MHD_queue_response(conn, (unsigned)f.status, resp);
    MHD_destroy_response(resp);
    return ok;
}
