/* admin.c — `parapet admin [--data DIR] <object> <verb> [--options]`: the
 * operator's commands. Each prints one JSON object on stdout and exits 0;
 * errors go to stderr with a non-zero exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/crypto.h"
#include "base/net.h"
#include "base/text.h"
#include "cli/accounts.h"
#include "cli/admin.h"
#include "cli/admin_print.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/dns_options.h"

static int failed(const struct account_error *e)
{
    fprintf(stderr, "parapet: %s\n", e->message);
    return 1;
}

/* Prints a list the store filled in as {"<key>": [...]}. Call as
 * `rc = store_call(..., &list); return print_list(rc, key, list);`: the
 * list must be read after the call has filled it. */
static int print_list(int rc, const char *key, json_t *list)
{
    if (rc != STORE_OK) {
        fprintf(stderr, "parapet: the store could not be read\n");
        return 1;
    }
    return admin_print(json_pack("{s:o}", key, list));
}

static int cmd_portal(struct store *s, const char *verb, json_t *a)
{
    struct account_error e;
    if (strcmp(verb, "create") == 0) {
        json_t *r = account_portal_create(s, arg_str(a, "name"), &e);
        return r ? admin_print(r) : failed(&e);
    }
    json_t *list = NULL;
    int rc = s->ops->portal_list(s, &list);
    return print_list(rc, "portals", list);
}

static int cmd_app(struct store *s, const char *verb, json_t *a)
{
    struct account_error e;
    if (strcmp(verb, "create") == 0) {
        struct app_request req = {
            .kind = arg_str(a, "kind"),
            .portal_id = arg_str(a, "portal"),
            .name = arg_str(a, "name"),
            .host_url = arg_str(a, "host-url"),
            .allow_ips = json_object_get(a, "allow-ip"),
        };
        json_t *r = account_app_create(s, &req, &e);
        return r ? admin_print(r) : failed(&e);
    }
    if (strcmp(verb, "list") == 0) {
        json_t *list = NULL;
        int rc = s->ops->app_list(s, &list);
        return print_list(rc, "apps", list);
    }
    const char *id = arg_required(a, "app");
    if (!id)
        return 2;
    s->ops->begin(s, true);
    int rc;
    json_t *res;
    if (strcmp(verb, "revoke") == 0) {
        long n = 0;
        rc = s->ops->app_revoke(s, id);
        if (rc == STORE_OK)
            rc = s->ops->token_revoke_app(s, id, &n);
        res = json_pack("{s:s,s:b,s:I}", "app_id", id, "revoked", 1, "tokens_revoked", (json_int_t)n);
    } else { /* rotate-secret */
        char secret[2 * SECRET_BYTES + 1], digest[DIGEST_LEN + 1];
        random_hex(secret, SECRET_BYTES);
        sha256_hex(secret, digest);
        rc = s->ops->app_set_secret(s, id, digest);
        res = json_pack("{s:s,s:s}", "app_id", id, "secret", secret);
    }
    if (rc != STORE_OK || s->ops->commit(s) != STORE_OK) {
        s->ops->rollback(s);
        json_decref(res);
        fprintf(stderr, "parapet: %s\n", rc == STORE_NOT_FOUND ? "no such app" : "the change failed");
        return 1;
    }
    return admin_print(res);
}

static int cmd_customer(struct store *s, const char *verb, json_t *a)
{
    struct account_error e;
    if (strcmp(verb, "create") == 0) {
        struct customer_request req = {
            .portal_id = arg_str(a, "portal"),
            .name = arg_str(a, "name"),
            .email = arg_str(a, "email"),
            .company = arg_str(a, "company"),
            .phone = arg_str(a, "phone"),
            .address = arg_str(a, "address"),
            .website = arg_str(a, "website"),
            .services = arg_str(a, "services"),
        };
        json_t *r = account_customer_create(s, &req, &e);
        return r ? admin_print(r) : failed(&e);
    }
    json_t *list = NULL;
    long total;
    int rc = s->ops->customer_list(s, arg_str(a, "portal"), 0, 1L << 40, &list, &total);
    return print_list(rc, "customers", list);
}

static int cmd_install(struct store *s, const char *verb, json_t *a)
{
    struct account_error e;
    if (verb && strcmp(verb, "list") == 0) {
        json_t *list = NULL;
        int rc = s->ops->install_list(s, &list);
        return print_list(rc, "installations", list);
    }
    json_t *r = account_install(s, arg_str(a, "app"), arg_str(a, "customer"), &e);
    return r ? admin_print(r) : failed(&e);
}

static int cmd_token(struct store *s, const char *verb, json_t *a)
{
    int64_t now = (int64_t)time(NULL);
    if (strcmp(verb, "list") == 0) {
        json_t *list = NULL;
        int rc = s->ops->token_list(s, arg_str(a, "app"), now, &list);
        return print_list(rc, "tokens", list);
    }
    s->ops->begin(s, true);
    long n = 0;
    int rc;
    if (strcmp(verb, "purge") == 0) {
        rc = s->ops->token_purge_expired(s, now, &n);
    } else if (arg_str(a, "token")) { /* revoke one token, given as the caller holds it */
        char digest[DIGEST_LEN + 1];
        sha256_hex(arg_str(a, "token"), digest);
        rc = s->ops->token_revoke_digest(s, digest);
        n = rc == STORE_OK;
    } else if (arg_str(a, "app")) {
        rc = s->ops->token_revoke_app(s, arg_str(a, "app"), &n);
    } else {
        s->ops->rollback(s);
        fprintf(stderr, "parapet: token revoke needs --app APP_ID or --token TOKEN\n");
        return 2;
    }
    if (rc != STORE_OK || s->ops->commit(s) != STORE_OK) {
        s->ops->rollback(s);
        fprintf(stderr, "parapet: %s\n", rc == STORE_NOT_FOUND ? "no such token" : "the change failed");
        return 1;
    }
    return admin_print(json_pack("{s:I}", strcmp(verb, "purge") == 0 ? "purged" : "revoked", (json_int_t)n));
}

/* One ROA CSV line: "AS64496,192.0.2.0/24,24,apnic[,...]". Header lines
 * (not starting with an ASN) are skipped. Returns 1 added, 0 skipped, -1 bad. */
static int import_line(struct store *s, char *line, struct account_error *e)
{
    line[strcspn(line, "\r\n")] = '\0';
    char *f[4] = {0};
    int n = 0;
    for (char *save = NULL, *t = strtok_r(line, ",", &save); t && n < 4; t = strtok_r(NULL, ",", &save))
        f[n++] = t + strspn(t, " \t\"");
    for (int i = 0; i < n; i++)
        f[i][strcspn(f[i], " \t\"")] = '\0';
    if (n == 0 || account_parse_asn(f[0]) < 0)
        return n == 0 || strncasecmp(line, "AS", 2) != 0 || strcasecmp(f[0], "ASN") == 0 ? 0 : -1;
    if (n < 3) {
        snprintf(e->message, sizeof e->message, "expected ASN,prefix,max length[,trust anchor]");
        return -1;
    }
    char *end;
    long maxlen = strtol(f[2], &end, 10);
    if (*end || end == f[2]) {
        snprintf(e->message, sizeof e->message, "max length '%s' is not a number", f[2]);
        return -1;
    }
    return account_asn_add(s, account_parse_asn(f[0]), f[1], (int)maxlen, n > 3 ? f[3] : "", e) == 0 ? 1 : -1;
}

static int cmd_asn_import(struct store *s, const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "parapet: cannot read %s\n", path);
        return 1;
    }
    struct account_error e;
    char line[1024];
    long lineno = 0, added = 0, skipped = 0;
    s->ops->begin(s, true);
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        int rc = import_line(s, line, &e);
        if (rc < 0) {
            fclose(fp);
            s->ops->rollback(s);
            fprintf(stderr, "parapet: %s line %ld: %s (nothing imported)\n", path, lineno, e.message);
            return 1;
        }
        rc ? added++ : skipped++;
    }
    fclose(fp);
    if (s->ops->commit(s) != STORE_OK) {
        s->ops->rollback(s);
        fprintf(stderr, "parapet: the import could not be saved\n");
        return 1;
    }
    return admin_print(json_pack("{s:I,s:I}", "imported", (json_int_t)added, "skipped", (json_int_t)skipped));
}

static int cmd_asn(struct store *s, const char *verb, json_t *a, const char *file)
{
    if (strcmp(verb, "import") == 0)
        return file ? cmd_asn_import(s, file) : (fprintf(stderr, "parapet: asn import FILE\n"), 2);
    if (strcmp(verb, "list") == 0) {
        json_t *list = NULL;
        int rc = s->ops->asn_list(s, &list);
        return print_list(rc, "prefixes", list);
    }
    long long asn = account_parse_asn(arg_str(a, "asn"));
    json_t *prefixes = json_object_get(a, "prefix");
    if (asn < 0 || !prefixes) {
        fprintf(stderr, "parapet: asn add needs --asn N (0..4294967295) and --prefix CIDR\n");
        return 2;
    }
    struct account_error e;
    s->ops->begin(s, true);
    size_t i;
    json_t *p;
    json_array_foreach (prefixes, i, p) {
        if (account_asn_add(s, asn, json_string_value(p), -1, "admin", &e) != 0) {
            s->ops->rollback(s);
            return failed(&e);
        }
    }
    if (s->ops->commit(s) != STORE_OK) {
        s->ops->rollback(s);
        fprintf(stderr, "parapet: the prefixes could not be saved\n");
        return 1;
    }
    return admin_print(
        json_pack("{s:I,s:I}", "asn", (json_int_t)asn, "prefixes", (json_int_t)json_array_size(prefixes)));
}

struct command {
    const char *object, *verbs; /* verbs: space-separated */
    const struct opt *opts;
    bool takes_file; /* one positional argument after the verb */
};

static const struct opt name_opt[] = {{.name = "name"}, {.name = NULL}};
static const struct opt app_opts[] = {{.name = "kind"},
                                      {.name = "portal"},
                                      {.name = "name"},
                                      {.name = "host-url"},
                                      {.name = "allow-ip", .repeatable = true},
                                      {.name = "app"},
                                      {.name = NULL}};
static const struct opt customer_opts[] = {{.name = "portal"},  {.name = "name"},     {.name = "email"},
                                           {.name = "company"}, {.name = "phone"},    {.name = "address"},
                                           {.name = "website"}, {.name = "services"}, {.name = NULL}};
static const struct opt install_opts[] = {{.name = "app"}, {.name = "customer"}, {.name = NULL}};
static const struct opt token_opts[] = {{.name = "app"}, {.name = "token"}, {.name = NULL}};
static const struct opt asn_opts[] = {
    {.name = "asn"}, {.name = "prefix", .repeatable = true}, {.name = NULL}};
static const struct opt dns_opts[] = {DNS_DEPLOY_OPTS, {.name = NULL}};
static const struct opt catalogue_opts[] = {{.name = "key"}, {.name = "value"}, {.name = NULL}};
static const struct opt vip_pool_opts[] = {{.name = "cidr"}, {.name = NULL}};
static const struct opt ingest_token_opts[] = {{.name = "name"}, {.name = "id"}, {.name = NULL}};
static const struct opt telemetry_opts[] = {{.name = "days"}, {.name = NULL}};
static const struct opt dataplane_opts[] = {{.name = "plane"}, {.name = NULL}};
static const struct opt audit_opts[] = {{.name = "customer"}, {.name = "app"},   {.name = "route"}, {.name = "since"},
                                        {.name = "until"},    {.name = "limit"}, {.name = NULL}};

static const struct command commands[] = {
    {"portal", "create list", name_opt, false},
    {"app", "create list revoke rotate-secret", app_opts, false},
    {"customer", "create list", customer_opts, false},
    {"install", "list", install_opts, false},
    {"token", "list revoke purge", token_opts, false},
    {"asn", "add import list", asn_opts, true},
    {"dns", "deploy zones", dns_opts, false},
    {"catalogue", "list get set reset", catalogue_opts, true},
    {"vip-pool", "add list remove", vip_pool_opts, false},
    {"ingest-token", "create list revoke", ingest_token_opts, false},
    {"telemetry", "purge", telemetry_opts, false},
    {"dataplane", "status", dataplane_opts, false},
    {"audit", "list export", audit_opts, false},
};

static bool has_verb(const char *verbs, const char *verb)
{
    size_t n = strlen(verb);
    for (const char *p = verbs; (p = strstr(p, verb)); p += n)
        if ((p == verbs || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

static void admin_usage(void)
{
    fputs("usage: parapet admin [--data DIR] <command>\n"
          "  portal create --name NAME | portal list\n"
          "  app create --kind portal --portal PORTAL_ID --name NAME [--allow-ip CIDR]...\n"
          "  app create --kind installed --name NAME --host-url URL [--allow-ip CIDR]...\n"
          "  app list | app revoke --app APP_ID | app rotate-secret --app APP_ID\n"
          "  customer create --portal PORTAL_ID --name NAME [--email E] [--company C] [--phone P]\n"
          "                  [--address A] [--website W] [--services op,ap,dns,cdn]\n"
          "  customer list [--portal PORTAL_ID]\n"
          "  install --app APP_ID --customer CUSTOMER_ID | install list\n"
          "  token list [--app APP_ID] | token revoke (--app APP_ID | --token TOKEN) | token purge\n"
          "  asn add --asn N --prefix CIDR [--prefix CIDR]... | asn import ROA.csv | asn list\n"
          "  dns deploy [DNS options of `parapet serve --help`] | dns zones\n"
          "  catalogue list | catalogue get --key KEY | catalogue reset --key KEY\n"
          "  catalogue set --key KEY (--value JSON | FILE.json)\n"
          "  vip-pool add --cidr CIDR | vip-pool list | vip-pool remove --cidr CIDR\n"
          "  ingest-token create --name NAME | ingest-token list | ingest-token revoke --id ID\n"
          "  telemetry purge [--days D]   (remove telemetry older than D days, default 35)\n"
          "  dataplane status [--plane ",
          stderr);
    admin_dataplane_planes(stderr);
    fputs("]   (each site's deploy state)\n"
          "  audit list|export [--customer ID] [--app ID] [--route ID] [--since T] [--until T] [--limit N]\n"
          "                                         (the writes; export: JSON lines)\n"
          "  migrate --from sqlite:DATA_DIR --to postgresql://USER@HOST/DB\n"
          "                                         (copy every table into an empty database, ids kept)\n"
          "  backup --to FILE                       (a consistent copy of the database, while it serves)\n"
          "  restore --from FILE [--replace]        (into a data directory no server runs on)\n",
          stderr);
}

int cli_admin(int argc, char **argv)
{
    const char *data = "./parapet-data";
    int i = 0;
    if (i + 1 < argc && strcmp(argv[i], "--data") == 0) {
        data = argv[i + 1];
        i += 2;
    }
    if (i >= argc) {
        admin_usage();
        return 2;
    }
    const char *object = argv[i++];
    if (strcmp(object, "migrate") == 0) /* two stores of its own, none of --data's */
        return admin_migrate(argc - i, argv + i);
    if (strcmp(object, "backup") == 0 || strcmp(object, "restore") == 0) /* a copy of the store, not the store */
        return admin_backup(object, data, argc - i, argv + i);
    /* "install --app .." has no verb; every other command has one */
    const char *verb = NULL;
    if (i < argc && strncmp(argv[i], "--", 2) != 0)
        verb = argv[i++];
    const struct command *c = NULL;
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        if (strcmp(commands[k].object, object) == 0)
            c = &commands[k];
    bool verb_ok = c && (verb ? has_verb(c->verbs, verb) : strcmp(object, "install") == 0);
    if (!verb_ok) {
        admin_usage();
        return 2;
    }
    const char *file = NULL;
    bool file_verb = verb && (strcmp(verb, "import") == 0 || strcmp(verb, "set") == 0);
    if (c->takes_file && file_verb && i < argc && strncmp(argv[i], "--", 2) != 0)
        file = argv[i++];
    json_t *a = args_parse(argc - i, argv + i, c->opts);
    if (!a)
        return 2;
    struct store *s = cli_open_store(data);
    if (!s) {
        json_decref(a);
        return 1;
    }
    int rc;
    if (!strcmp(object, "portal"))
        rc = cmd_portal(s, verb, a);
    else if (!strcmp(object, "app"))
        rc = cmd_app(s, verb, a);
    else if (!strcmp(object, "customer"))
        rc = cmd_customer(s, verb, a);
    else if (!strcmp(object, "install"))
        rc = cmd_install(s, verb, a);
    else if (!strcmp(object, "token"))
        rc = cmd_token(s, verb, a);
    else if (!strcmp(object, "asn"))
        rc = cmd_asn(s, verb, a, file);
    else if (!strcmp(object, "catalogue"))
        rc = admin_catalogue(s, verb, a, file);
    else if (!strcmp(object, "vip-pool"))
        rc = admin_vip_pool(s, verb, a);
    else if (!strcmp(object, "ingest-token"))
        rc = admin_ingest_token(s, verb, a);
    else if (!strcmp(object, "telemetry"))
        rc = admin_telemetry(s, verb, a);
    else if (!strcmp(object, "dataplane"))
        rc = admin_dataplane(s, verb, a);
    else if (!strcmp(object, "audit"))
        rc = admin_audit(s, verb, a);
    else
        rc = admin_dns(s, verb, a, data);
    s->ops->close(s);
    json_decref(a);
    return rc;
}
