/* dev_cp.h — `serve --dev` seeding for CleanPipe Protection. */
#ifndef PARAPET_CLI_DEV_CP_H
#define PARAPET_CLI_DEV_CP_H

#include "cli/accounts.h"
#include "store/store.h"

/* In the caller's write transaction: one CleanPipe site of the customer
 * ("dev_cleanpipe", 198.18.100.0/24, from RFC 2544's benchmarking range so
 * that it meets no documentation prefix another family seeds) with a host
 * and a route template, stored as the API stores them. 0, or -1 with e set. */
int dev_cp_seed(struct store *s, const char *customer_id, struct account_error *e);

#endif
