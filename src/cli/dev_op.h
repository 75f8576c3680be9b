/* dev_op.h — the Origin Protection part of the `serve --dev` seed. */
#ifndef PARAPET_CLI_DEV_OP_H
#define PARAPET_CLI_DEV_OP_H

#include "cli/accounts.h"

/* One site (AS64496, 192.0.2.0/24) with a network and a host for the
 * customer, in the caller's write transaction. 0, or -1 with e set. */
int dev_op_seed(struct store *s, const char *customer_id, struct account_error *e);

#endif
