/* nft_lib.c — see nft_lib.h. */
#include "dataplane/nftables/nft_lib.h"

#include <nftables/libnftables.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* nftables' first error, and the source line under it:
 *   /dir/check/parapet.nft:5:18-32: Error: Prefix length 33 is invalid ...
 *   <the line>
 *   <carets>
 * becomes "line 5: Prefix length 33 is invalid ..., in: <the line>". */
static void first_error(const char *err, char *why, size_t why_len)
{
    const char *e = err ? strstr(err, "Error: ") : NULL;
    if (!e) {
        snprintf(why, why_len, "nftables refused the ruleset: %.300s", err && *err ? err : "(no message)");
        why[strcspn(why, "\n")] = '\0';
        return;
    }
    char where[32] = "";
    const char *start = e; /* the location before it, on the same line */
    while (start > err && start[-1] != '\n')
        start--;
    int line = 0;
    const char *colon = memchr(start, ':', (size_t)(e - start));
    if (colon && sscanf(colon + 1, "%d:", &line) == 1 && line > 0)
        snprintf(where, sizeof where, "line %d: ", line);
    e += 7;
    int len = (int)strcspn(e, "\n");
    const char *src = e[len] ? e + len + 1 : "";
    while (*src == ' ' || *src == '\t')
        src++;
    int src_len = (int)strcspn(src, "\n");
    if (src_len > 200)
        src_len = 200;
    if (src_len)
        snprintf(why, why_len, "nftables refused the ruleset: %s%.*s, in: %.*s", where, len, e, src_len, src);
    else
        snprintf(why, why_len, "nftables refused the ruleset: %s%.*s", where, len, e);
}

/* Refusals that say nothing about the ruleset: the checker could not run. */
static bool not_ruleset(const char *err)
{
    return err && (strstr(err, "Operation not permitted") || strstr(err, "Cannot allocate memory") ||
                   strstr(err, "Protocol not supported"));
}

static int run(const char *text, const char *path, bool dry_run, bool json, char **out, char *why, size_t why_len)
{
    pthread_mutex_lock(&lock);
    struct nft_ctx *ctx = nft_ctx_new(NFT_CTX_DEFAULT);
    if (!ctx) {
        pthread_mutex_unlock(&lock);
        snprintf(why, why_len, "libnftables: no context");
        return -1;
    }
    nft_ctx_set_dry_run(ctx, dry_run);
    if (json)
        nft_ctx_output_set_flags(ctx, NFT_CTX_OUTPUT_JSON);
    nft_ctx_buffer_output(ctx);
    nft_ctx_buffer_error(ctx);
    int rc = text ? nft_run_cmd_from_buffer(ctx, text) : nft_run_cmd_from_filename(ctx, path);
    const char *err = nft_ctx_get_error_buffer(ctx);
    int result = 0;
    if (rc != 0) {
        first_error(err, why, why_len);
        result = not_ruleset(err) ? -1 : 1;
    } else if (out) {
        *out = strdup(nft_ctx_get_output_buffer(ctx) ?: "");
    }
    nft_ctx_free(ctx);
    pthread_mutex_unlock(&lock);
    return result;
}

int nft_lib_file(const char *path, bool dry_run, char *why, size_t why_len)
{
    return run(NULL, path, dry_run, false, NULL, why, why_len);
}

int nft_lib_text(const char *text, bool dry_run, char *why, size_t why_len)
{
    return run(text, NULL, dry_run, false, NULL, why, why_len);
}

int nft_lib_json(const char *command, char **json, char *why, size_t why_len)
{
    *json = NULL;
    return run(command, NULL, false, true, json, why, why_len);
}
