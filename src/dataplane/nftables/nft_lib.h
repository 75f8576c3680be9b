/* nft_lib.h — nftables through libnftables (Debian libnftables1), in the
 * network namespace of the calling thread: a dry run of a ruleset (the
 * kernel checks it, nothing is committed: `nft -c`), a file applied as one
 * transaction (`nft -f`), and a command answered in JSON (`nft -j`). Calls
 * take turns on one lock (libnftables keeps some state of its own). Both
 * the check and the apply need CAP_NET_ADMIN in that namespace. */
#ifndef PARAPET_NFT_LIB_H
#define PARAPET_NFT_LIB_H

#include <stdbool.h>
#include <stddef.h>

/* Checks (dry_run: the kernel checks it, nothing is committed) or applies
 * (one transaction) the ruleset file at path. 0: accepted; 1: refused, why
 * = nftables' first error with its line number and the line it points at;
 * -1: nftables could not run (no permission, no memory), why says so. */
int nft_lib_file(const char *path, bool dry_run, char *why, size_t why_len);
/* The same for commands in a buffer (one transaction; nftables 1.0.6 names
 * the wrong line of a buffer in its messages: check files). */
int nft_lib_text(const char *text, bool dry_run, char *why, size_t why_len);
/* Runs one command with JSON output: 0 with *json (malloc'd), or 1 / -1 as
 * above. */
int nft_lib_json(const char *command, char **json, char *why, size_t why_len);

#endif
