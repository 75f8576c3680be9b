/* dns_options.h — the DNS deploy options that `parapet serve` and
 * `parapet admin dns deploy` share, and the deploy configuration they make. */
#ifndef PARAPET_CLI_DNS_OPTIONS_H
#define PARAPET_CLI_DNS_OPTIONS_H

#include <jansson.h>

#include "deploy/dns_deployer.h"

enum { DNS_MAX_NAMESERVERS = 8 };

/* Entries of a `struct opt` table (args.h). */
#define DNS_DEPLOY_OPTS                                                                                      \
    {.name = "dns-dir"}, {.name = "knotc"}, {.name = "dns-reload", .flag = true}, {.name = "dns-listen"},    \
        {.name = "dns-nameserver", .repeatable = true},                                                      \
    {                                                                                                        \
        .name = "dns-deploy-interval"                                                                        \
    }

#define DNS_DEPLOY_USAGE                                                                                     \
    "  --dns-dir DIR              Knot DNS files (default DATA/knot): knot.conf (yours after it is\n"        \
    "                             written), zones.conf (parapet's), zones/, db/, run/\n"                     \
    "  --knotc PATH|none          knotc used to validate each configuration (default: knotc in PATH)\n"      \
    "  --dns-reload               run `knotc reload` after installing a changed configuration\n"             \
    "  --dns-listen ADDR@PORT     knotd's listen address written into a new knot.conf (127.0.0.1@5300)\n"    \
    "  --dns-nameserver NAME      NS of new zone files (repeatable; ns1/ns2.parapet.invalid)\n"              \
    "  --dns-deploy-interval S    background deploy sweep interval (5)\n"

struct dns_options {
    struct dns_deploy_config cfg;
    char dir[1024];
    char nameservers[DNS_MAX_NAMESERVERS][256];
    const char *ns_list[DNS_MAX_NAMESERVERS];
};

/* Fills o from the parsed options; data_dir gives the default directory.
 * Returns 0, or -1 after a message on stderr. */
int dns_options_configure(json_t *args, const char *data_dir, struct dns_options *o);

#endif
