/* options_doc.h — what an option table (args.h) says of itself: the text of
 * `--help`, a configuration file template, and the OPTIONS part of a man
 * page. All three come from the table, so they cannot drift from what the
 * command accepts (tests/unit/test_serve_options.c). */
#ifndef PARAPET_CLI_OPTIONS_DOC_H
#define PARAPET_CLI_OPTIONS_DOC_H

#include <jansson.h>
#include <stdio.h>

#include "cli/args.h"

/* "  --name ARG   help (default: X)" lines under each heading, wrapped. */
void opts_usage(FILE *out, const struct opt *opts);

/* A configuration file: each key's help as a comment, then "key = value"
 * for the options in given (parsed options, args.h), "#key = " for the
 * others (command-line-only options are left out). */
void opts_config(FILE *out, const struct opt *opts, json_t *given);

/* roff: a .SS per heading and a .TP per option. */
void opts_man(FILE *out, const struct opt *opts);

/* Text with roff's special characters escaped (\, -, a leading . or '). */
void roff_text(FILE *out, const char *text);

#endif
