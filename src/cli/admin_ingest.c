/* admin_ingest.c — `parapet admin ingest-token create --name N | list |
 * revoke --id ID`: the operator's credentials for POST /ingest/v1/records
 * (the token is printed once, at creation; the store keeps its digest);
 * `parapet admin telemetry purge [--days D]`: retention now. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/crypto.h"
#include "cli/admin.h"
#include "cli/admin_print.h"
#include "cli/args.h"
#include "telemetry/retention.h"

int admin_telemetry(struct store *s, const char *verb, json_t *args)
{
    (void)verb; /* "purge" */
    const char *days_text = arg_str(args, "days");
    long days = days_text ? atol(days_text) : TEL_RETENTION_DAYS_DEFAULT;
    if (days < 1 || days > 3650) {
        fprintf(stderr, "parapet: --days must be a number of days from 1 to 3650\n");
        return 2;
    }
    long removed = 0;
    if (telemetry_retention_run(s, (int64_t)time(NULL), days, &removed) != 0) {
        fprintf(stderr, "parapet: the store failed\n");
        return 1;
    }
    return admin_print(json_pack("{s:i,s:i}", "days", (int)days, "removed", (int)removed));
}

int admin_ingest_token(struct store *s, const char *verb, json_t *args)
{
    if (strcmp(verb, "list") == 0) {
        json_t *list = NULL;
        if (s->ops->ingest_token_list(s, &list) != STORE_OK) {
            fprintf(stderr, "parapet: the store could not be read\n");
            return 1;
        }
        return admin_print(json_pack("{s:o}", "ingest_tokens", list));
    }
    if (strcmp(verb, "revoke") == 0) {
        const char *id = arg_str(args, "id");
        if (!id) {
            fprintf(stderr, "parapet: ingest-token revoke needs --id ID\n");
            return 2;
        }
        int rc = s->ops->ingest_token_revoke(s, id);
        if (rc == STORE_NOT_FOUND)
            fprintf(stderr, "parapet: no ingest token %s\n", id);
        if (rc != STORE_OK)
            return 1;
        return admin_print(json_pack("{s:s,s:b}", "id", id, "revoked", 1));
    }
    const char *name = arg_str(args, "name");
    if (!name || !*name || strlen(name) > 128) {
        fprintf(stderr, "parapet: ingest-token create needs --name NAME (1 to 128 characters)\n");
        return 2;
    }
    char id[ID_LEN + 1], token[65], digest[DIGEST_LEN + 1];
    random_hex(id, ID_LEN / 2);
    random_hex(token, 32);
    sha256_hex(token, digest);
    if (s->ops->ingest_token_create(s, id, name, digest) != STORE_OK) {
        fprintf(stderr, "parapet: the token could not be stored\n");
        return 1;
    }
    return admin_print(json_pack("{s:s,s:s,s:s}", "id", id, "name", name, "token", token));
}
