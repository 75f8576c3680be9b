/* dispatch.h — runs one request through the route table: path and method,
 * body encoding, token, tenancy, field checks, then the handler inside one
 * store transaction. The handler sees only requests that passed all of it. */
#ifndef PARAPET_DISPATCH_H
#define PARAPET_DISPATCH_H

#include "core/req.h"

/* Builds the router from the route table; -1 (with a message) if it clashes. */
int dispatch_init(void);
void dispatch_shutdown(void);
/* Fills r's reply. r->store, r->config and the input side must be set. */
void dispatch(struct req *r);

#endif
