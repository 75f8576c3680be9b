/* config_file.h — a command's configuration file: "key = value" lines whose
 * keys are the long options of its table (args.h) without "--". Blank
 * lines and lines starting with '#' are skipped; a value is the rest of
 * the line, trimmed (no quoting, no trailing comments); a flag takes
 * true/false (yes/no, on/off, 1/0); a repeatable option one line per value.
 * Unknown keys, missing values, a single option given twice and
 * command-line-only options are refused with the line number. */
#ifndef PARAPET_CLI_CONFIG_FILE_H
#define PARAPET_CLI_CONFIG_FILE_H

#include <jansson.h>
#include <stdio.h>

#include "cli/args.h"

/* The options of the file (shaped as args_parse's result), or NULL after
 * a message "parapet: NAME line N: ..." on stderr. */
json_t *config_file_parse(FILE *in, const char *name, const struct opt *opts);
/* The same for a path (a file that cannot be read is an error). */
json_t *config_file_read(const char *path, const struct opt *opts);

/* Adds to args (the command line's options) each option of file the
 * command line does not give: the command line wins, a repeatable option
 * included (its values on the command line replace the file's). */
void config_merge(json_t *args, json_t *file);

#endif
