/* dns_options.h — the DNS deploy options that `parapet serve` and
 * `parapet admin dns deploy` share, and the deploy configuration they make. */
#ifndef PARAPET_CLI_DNS_OPTIONS_H
#define PARAPET_CLI_DNS_OPTIONS_H

#include <jansson.h>

#include "deploy/dns_deployer.h"

enum { DNS_MAX_NAMESERVERS = 8 };

/* Entries of a `struct opt` table (args.h), with their documentation. */
#define DNS_DEPLOY_OPTS                                                                                      \
    {.name = "dns-dir", .arg = "DIR", .dflt = "DATA/knot",                                                   \
     .help = "Knot DNS files: knot.conf (yours after it is written), zones.conf (parapet's), zones/, db/, run/"}, \
        {.name = "knotc", .arg = "PATH|none", .dflt = "knotc in PATH",                                       \
         .help = "knotc used to validate each configuration"},                                               \
        {.name = "dns-reload", .flag = true, .help = "run `knotc reload` after installing a changed configuration"}, \
        {.name = "dns-listen", .arg = "ADDR@PORT", .dflt = "127.0.0.1@5300",                                 \
         .help = "knotd's listen address written into a new knot.conf"},                                     \
        {.name = "dns-nameserver", .repeatable = true, .arg = "NAME",                                        \
         .dflt = "ns1.parapet.invalid and ns2.parapet.invalid", .help = "NS of new zone files (repeatable)"}, \
        {.name = "dns-deploy-interval", .arg = "S", .dflt = "5", .help = "background deploy sweep interval"}

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
