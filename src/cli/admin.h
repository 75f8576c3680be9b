/* admin.h — the commands of `parapet admin`, one file each, that admin.c
 * calls (they print through admin_print.h). */
#ifndef PARAPET_CLI_ADMIN_H
#define PARAPET_CLI_ADMIN_H

#include <jansson.h>
#include <stdio.h>

#include "store/store.h"

/* admin_dns.c: `dns deploy [options]` and `dns zones`. */
int admin_dns(struct store *s, const char *verb, json_t *args, const char *data_dir);

/* admin_catalogue.c: `catalogue list | get | set | reset`. */
int admin_catalogue(struct store *s, const char *verb, json_t *args, const char *file);

/* admin_vip.c: `vip-pool add --cidr C | list | remove --cidr C` (Application Protection VIPs). */
int admin_vip_pool(struct store *s, const char *verb, json_t *args);

/* admin_ingest.c: `ingest-token create --name N | list | revoke --id ID`. */
int admin_ingest_token(struct store *s, const char *verb, json_t *args);
/* admin_ingest.c: `telemetry purge [--days D]`. */
int admin_telemetry(struct store *s, const char *verb, json_t *args);

/* admin_dataplane.c: `dataplane status [--plane P]`. */
int admin_dataplane(struct store *s, const char *verb, json_t *args);
/* The planes --plane accepts, "a|b|c", to out (the usage's list). */
void admin_dataplane_planes(FILE *out);
/* admin_audit.c: `audit list|export [--customer ID] [--app ID] [--route ID] [--since T] [--until T] [--limit N]`. */
int admin_audit(struct store *s, const char *verb, json_t *args);

/* admin_backup.c: `backup --to FILE` and `restore --from FILE [--replace]`
 * (object: "backup" or "restore"; they open no store of their own). */
int admin_backup(const char *object, const char *data_dir, int argc, char **argv);

/* admin_migrate.c: `migrate --from sqlite:DIR --to postgresql://…` (opens its own stores). */
int admin_migrate(int argc, char **argv);

#endif
