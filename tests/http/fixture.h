/* fixture.h — the world the HTTPS tests run in: a data directory seeded
 * through `parapet admin`, a main server, a server with short lifetimes and
 * small limits, a Knot DNS server (knotd) serving what the main server
 * deploys, and tokens for each kind of caller, all published as variables
 * ($BASE, $T_P1, $C1, $DNS_PORT, ...). */
#ifndef PARAPET_TEST_FIXTURE_H
#define PARAPET_TEST_FIXTURE_H

#include <sys/types.h>

struct fixture {
    const char *bin;
    char data[256];
    char log[300];
    char ca_file[300];
    pid_t main_pid, short_pid, knotd_pid;
    int main_port, short_port, dns_port;
};

int fixture_setup(struct fixture *fx, const char *bin);
/* Stops the servers; returns the number of failures (an unclean exit counts). */
int fixture_teardown(struct fixture *fx);

/* The installed-app flow through HTTPS: connect, then exchange the code.
 * Publishes $<prefix>_TOKEN and $<prefix>_REFRESH. Returns 0 or -1. */
int fixture_install_login(const struct fixture *fx, const char *base, const char *app, const char *secret,
                          const char *xspe, const char *customer, const char *prefix);

#endif
