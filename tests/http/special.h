/* special.h — HTTPS tests that case files cannot express: connection
 * reuse, TLS versions and ciphers, limits, graceful shutdown, the admin CLI. */
#ifndef PARAPET_TEST_SPECIAL_H
#define PARAPET_TEST_SPECIAL_H

#include <stdbool.h>

#include "http/fixture.h"

struct special_test {
    const char *name;
    int (*run)(struct fixture *fx); /* 0 when it held */
    const char *sqlite_only;        /* why it cannot run on PostgreSQL (skipped there), or NULL */
    bool postgresql_only;           /* skipped on SQLite (a PostgreSQL server's behaviour) */
};

extern const struct special_test special_tests[];

/* special_heads.c */
int oversized_heads(struct fixture *fx);
/* special_handshake.c */
int stalled_handshakes(struct fixture *fx);
/* special_framing.c */
int reply_framing(struct fixture *fx);
/* special_abuse.c */
int abuse_limits(struct fixture *fx);
/* special_changes.c */
int changes_between_nodes(struct fixture *fx);
/* special_deploy_lock.c */
int deploy_lock(struct fixture *fx);
/* special_crash.c */
int crash_safety(struct fixture *fx);
int pg_restart(struct fixture *fx);
/* special_webhooks.c */
int webhook_delivery(struct fixture *fx);

#endif
