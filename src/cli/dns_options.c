/* dns_options.c — see dns_options.h. */
#include "cli/dns_options.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dnsname.h"
#include "cli/args.h"
#include "deploy/exec.h"
#include "deploy/files.h"

/* Knot's configuration wants absolute paths. */
static int absolute_dir(const char *dir, char out[1024])
{
    char real[PATH_MAX];
    if (files_mkdirs(dir) != 0 || !realpath(dir, real) || strlen(real) >= 1024) {
        fprintf(stderr, "parapet: cannot use %s for the DNS configuration\n", dir);
        return -1;
    }
    memcpy(out, real, strlen(real) + 1);
    return 0;
}

static int nameservers(json_t *args, struct dns_options *o)
{
    static const char *const defaults[] = {"ns1.parapet.invalid", "ns2.parapet.invalid"};
    json_t *given = json_object_get(args, "dns-nameserver");
    size_t n = given ? json_array_size(given) : 2;
    if (n > DNS_MAX_NAMESERVERS) {
        fprintf(stderr, "parapet: at most %d --dns-nameserver\n", DNS_MAX_NAMESERVERS);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const char *name = given ? json_string_value(json_array_get(given, i)) : defaults[i];
        char why[DNS_WHY_MAX];
        if (zone_name_normalise(name, o->nameservers[i], why) != 0) {
            fprintf(stderr, "parapet: --dns-nameserver %s: %s\n", name, why);
            return -1;
        }
        o->ns_list[i] = o->nameservers[i];
    }
    o->cfg.knot.nameservers = o->ns_list;
    o->cfg.knot.n_nameservers = (int)n;
    return 0;
}

int dns_options_configure(json_t *args, const char *data_dir, struct dns_options *o)
{
    memset(o, 0, sizeof *o);
    char dir[4096];
    if (arg_str(args, "dns-dir"))
        snprintf(dir, sizeof dir, "%s", arg_str(args, "dns-dir"));
    else
        snprintf(dir, sizeof dir, "%s/knot", data_dir);
    if (absolute_dir(dir, o->dir) != 0 || nameservers(args, o) != 0)
        return -1;
    o->cfg.knot.dir = o->dir;
    o->cfg.knot.listen = arg_str(args, "dns-listen") ? arg_str(args, "dns-listen") : "127.0.0.1@5300";
    if (strspn(o->cfg.knot.listen, "0123456789abcdefABCDEF.:@") != strlen(o->cfg.knot.listen)) {
        fprintf(stderr, "parapet: --dns-listen must be ADDRESS@PORT\n");
        return -1;
    }
    const char *knotc = arg_str(args, "knotc");
    if (knotc && strcmp(knotc, "none") == 0)
        knotc = NULL;
    else if (!knotc)
        knotc = exec_available("knotc") ? "knotc" : NULL;
    else if (!exec_available(knotc)) {
        fprintf(stderr, "parapet: --knotc %s: not found\n", knotc);
        return -1;
    }
    o->cfg.knotc = knotc;
    o->cfg.reload = arg_flag(args, "dns-reload");
    if (o->cfg.reload && !knotc) {
        fprintf(stderr, "parapet: --dns-reload needs knotc\n");
        return -1;
    }
    const char *interval = arg_str(args, "dns-deploy-interval");
    char *end = NULL;
    long secs = interval ? strtol(interval, &end, 10) : 5;
    if (interval && (*end || secs < 1 || secs > 3600)) {
        fprintf(stderr, "parapet: --dns-deploy-interval must be 1 to 3600 seconds\n");
        return -1;
    }
    o->cfg.interval_s = (unsigned)secs;
    return 0;
}
