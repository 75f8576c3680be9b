/* knot_conf.c — see knot_conf.h. Every value written here was validated by
 * the API (names of letters, digits, hyphens and underscores, canonical
 * addresses, base64 secrets), so quoting them is enough to keep the YAML
 * well-formed; a value that reached the store another way and could end
 * its quoted string or line is refused here too (carried_values), never
 * written. Knot object ids are derived from the zone name, which is
 * unique: "<zone>#m<N>" for a master, "<zone>#notify", "<zone>#signers". */
#include "deploy/knot_conf.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"

static const char *str(json_t *obj, const char *key)
{
    const char *v = json_string_value(json_object_get(obj, key));
    return v ? v : "";
}

static bool flag(json_t *obj, const char *key)
{
    return json_is_true(json_object_get(obj, key));
}

static json_t *masters_of(json_t *spec)
{
    return json_object_get(spec, "masters");
}

/* Whether zones.conf can carry `v`: printable ASCII without '"', '\' or
 * '#' inside a quoted string; the algorithm, written bare, one or more
 * letters, digits and hyphens. */
static bool carried(const json_t *v, bool bare)
{
    const char *s = json_string_value(v);
    if (!s || strlen(s) != json_string_length(v) || (bare && !*s))
        return v == NULL; /* absent is fine; not a string, one with a NUL or an empty bare word is not */
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (bare ? !(c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
                 : (c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '#'))
            return false;
    }
    return true;
}

/* Every value of every spec that zones.conf writes can be carried: 0, or
 * -1 with *bad and why naming the first spec and member that cannot. */
static int carried_values(json_t *specs, size_t *bad, char *why, size_t whysize)
{
    static const char *const master_members[] = {"ip", "key_name", "secret"};
    size_t i, j;
    json_t *spec, *m, *ip;
    json_array_foreach (specs, i, spec) {
        const char *what = NULL;
        if (!json_is_string(json_object_get(spec, "name")) || !carried(json_object_get(spec, "name"), false))
            what = "name";
        json_array_foreach (masters_of(spec), j, m) {
            for (size_t k = 0; k < 3 && !what; k++)
                if (!carried(json_object_get(m, master_members[k]), false))
                    what = master_members[k];
            bool keyed = *str(m, "key_name"); /* the algorithm is written with the key only */
            const json_t *alg = json_object_get(m, "algorithm");
            if (!what && keyed && (!alg || !carried(alg, true)))
                what = "algorithm";
        }
        json_array_foreach (json_object_get(json_object_get(spec, "multi_signer"), "ip"), j, ip)
            if (!what && !carried(ip, false))
                what = "multi_signer ip";
        if (what) {
            *bad = i;
            snprintf(why, whysize, "a stored %s holds a character zones.conf cannot carry", what);
            return -1;
        }
    }
    return 0;
}

static bool multi_signer(json_t *spec)
{
    return flag(spec, "dnssec") && flag(json_object_get(spec, "multi_signer"), "enabled");
}

/* TSIG keys, one entry per key name; a name used with two different
 * secrets or algorithms cannot be rendered (Knot keys are global). */
static int render_keys(struct strbuf *b, json_t *specs, size_t *bad, char *why, size_t whysize)
{
    json_t *seen = json_object();
    size_t i, j;
    json_t *spec, *m;
    int rc = 0;
    json_array_foreach (specs, i, spec) {
        json_array_foreach (masters_of(spec), j, m) {
            const char *key = str(m, "key_name");
            if (!*key)
                continue;
            json_t *prev = json_object_get(seen, key);
            if (prev && (strcmp(str(prev, "secret"), str(m, "secret")) != 0 ||
                         strcmp(str(prev, "algorithm"), str(m, "algorithm")) != 0)) {
                *bad = i;
                snprintf(why, whysize, "TSIG key %s is configured with two different secrets or algorithms",
                         key);
                rc = -1;
                goto out;
            }
            if (prev)
                continue;
            json_object_set(seen, key, m);
            if (json_object_size(seen) == 1)
                sb_add(b, "key:\n");
            sb_printf(b, "  - id: \"%s.\"\n    algorithm: %s\n    secret: \"%s\"\n", key, str(m, "algorithm"),
                      str(m, "secret"));
        }
    }
out:
    json_decref(seen);
    return rc;
}

static void render_remotes(struct strbuf *b, json_t *specs)
{
    bool first = true;
    size_t i, j;
    json_t *spec, *m;
    json_array_foreach (specs, i, spec) {
        json_array_foreach (masters_of(spec), j, m) {
            if (first)
                sb_add(b, "remote:\n");
            first = false;
            sb_printf(b, "  - id: \"%s#m%zu\"\n    address: \"%s\"\n", str(spec, "name"), j, str(m, "ip"));
            if (*str(m, "key_name"))
                sb_printf(b, "    key: \"%s.\"\n", str(m, "key_name"));
        }
    }
}

/* "[ "a", "b" ]" of a zone's remotes or of an array of strings. */
static void render_list(struct strbuf *b, json_t *spec, json_t *strings)
{
    sb_add(b, "[ ");
    size_t n = strings ? json_array_size(strings) : json_array_size(masters_of(spec));
    for (size_t k = 0; k < n; k++) {
        if (k)
            sb_add(b, ", ");
        if (strings)
            sb_printf(b, "\"%s\"", json_string_value(json_array_get(strings, k)));
        else
            sb_printf(b, "\"%s#m%zu\"", str(spec, "name"), k);
    }
    sb_add(b, " ]");
}

/* Masters may NOTIFY their secondaries; multi-signer peers may read the zone
 * and add their own DNSKEY, CDNSKEY and CDS records (RFC 8901, model 2). */
static void render_acls(struct strbuf *b, json_t *specs)
{
    bool first = true;
    size_t i;
    json_t *spec;
    json_array_foreach (specs, i, spec) {
        bool notify = json_array_size(masters_of(spec)) > 0;
        json_t *signers = json_object_get(json_object_get(spec, "multi_signer"), "ip");
        bool peers = multi_signer(spec) && json_array_size(signers) > 0;
        if ((notify || peers) && first)
            sb_add(b, "acl:\n");
        first = first && !(notify || peers);
        if (notify) {
            sb_printf(b, "  - id: \"%s#notify\"\n    remote: ", str(spec, "name"));
            render_list(b, spec, NULL);
            sb_add(b, "\n    action: notify\n");
        }
        if (peers) {
            sb_printf(b, "  - id: \"%s#signers\"\n    address: ", str(spec, "name"));
            render_list(b, spec, signers);
            sb_add(b, "\n    action: [ transfer, update ]\n    update-type: [ DNSKEY, CDNSKEY, CDS ]\n");
        }
    }
}

static void render_policies(struct strbuf *b, json_t *specs)
{
    bool signed_ = false, multi = false;
    size_t i;
    json_t *spec;
    json_array_foreach (specs, i, spec) {
        multi |= multi_signer(spec);
        signed_ |= flag(spec, "dnssec") && !multi_signer(spec);
    }
    if (!signed_ && !multi)
        return;
    sb_add(b, "policy:\n");
    if (signed_)
        sb_add(b, "  - id: \"" KNOT_POLICY_SIGNED "\"\n    algorithm: ecdsap256sha256\n");
    /* Multi-signer: keep the DNSKEYs the other signers add; Knot wants a
     * delete-delay with that, so a key removed by mistake can come back. */
    if (multi)
        sb_add(b, "  - id: \"" KNOT_POLICY_MULTI_SIGNER "\"\n    algorithm: ecdsap256sha256\n"
                  "    dnskey-management: incremental\n    delete-delay: 14d\n");
}

static void render_zone(struct strbuf *b, json_t *spec)
{
    const char *name = str(spec, "name");
    sb_printf(b, "  - domain: \"%s\"\n", name);
    json_t *acls = json_array();
    if (json_array_size(masters_of(spec)) > 0) {
        sb_add(b, "    master: ");
        render_list(b, spec, NULL);
        sb_add(b, "\n");
        json_array_append_new(acls, json_sprintf("%s#notify", name));
    }
    if (flag(spec, "dnssec"))
        sb_printf(b, "    dnssec-signing: on\n    dnssec-policy: \"%s\"\n",
                  multi_signer(spec) ? KNOT_POLICY_MULTI_SIGNER : KNOT_POLICY_SIGNED);
    if (multi_signer(spec) && json_array_size(json_object_get(json_object_get(spec, "multi_signer"), "ip")))
        json_array_append_new(acls, json_sprintf("%s#signers", name));
    if (json_array_size(acls) > 0) {
        sb_add(b, "    acl: ");
        render_list(b, spec, acls);
        sb_add(b, "\n");
    }
    /* A CNAME at the apex breaks a mandatory check (CNAME beside SOA/NS);
     * soft checks let the zone load with it (the provider flattens it). */
    if (flag(spec, "root_cname"))
        sb_add(b, "    semantic-checks: soft\n");
    json_decref(acls);
}

char *knot_render_zones(json_t *specs, size_t *bad, char *why, size_t whysize)
{
    struct strbuf b = {0};
    sb_add(&b, "# zones.conf: generated by parapet from its zone store on every deploy; do not edit.\n");
    if (carried_values(specs, bad, why, whysize) != 0 || render_keys(&b, specs, bad, why, whysize) != 0) {
        sb_free(&b);
        return NULL;
    }
    render_remotes(&b, specs);
    render_acls(&b, specs);
    render_policies(&b, specs);
    if (json_array_size(specs) > 0)
        sb_add(&b, "zone:\n");
    size_t i;
    json_t *spec;
    json_array_foreach (specs, i, spec)
        render_zone(&b, spec);
    return sb_take(&b);
}

char *knot_render_main(const struct knot_settings *k, const char *include_path)
{
    struct strbuf b = {0};
    sb_printf(&b,
              "# knot.conf: written by parapet when it was missing; yours to edit.\n"
              "# parapet rewrites only the included zones file.\n"
              "server:\n"
              "    rundir: \"%s/run\"\n"
              "    listen: \"%s\"\n"
              "database:\n"
              "    storage: \"%s/db\"\n"
              "template:\n"
              "  - id: default\n"
              "    storage: \"%s/zones\"\n"
              "    file: \"%%s.zone\"\n"
              "include: \"%s\"\n",
              k->dir, k->listen, k->dir, k->dir, include_path);
    return sb_take(&b);
}

char *knot_render_zone_file(const struct knot_settings *k, const char *zone)
{
    struct strbuf b = {0};
    const char *primary = k->n_nameservers > 0 ? k->nameservers[0] : "ns.invalid";
    sb_printf(&b,
              "; %s: a minimal zone written by parapet when the zone was created.\n"
              "$ORIGIN %s.\n"
              "$TTL 3600\n"
              "@\tIN\tSOA\t%s. hostmaster.%s. 1 7200 3600 1209600 3600\n",
              zone, zone, primary, zone);
    for (int i = 0; i < k->n_nameservers; i++)
        sb_printf(&b, "@\tIN\tNS\t%s.\n", k->nameservers[i]);
    if (k->n_nameservers == 0)
        sb_printf(&b, "@\tIN\tNS\t%s.\n", primary);
    return sb_take(&b);
}
