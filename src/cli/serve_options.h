/* serve_options.h — the one table of `parapet serve`'s options: what the
 * command line and the configuration file accept, and what `--help`, the
 * configuration file template and parapet-serve(8) say of them
 * (options_doc.h). */
#ifndef PARAPET_CLI_SERVE_OPTIONS_H
#define PARAPET_CLI_SERVE_OPTIONS_H

#include "cli/args.h"

extern const struct opt serve_options[]; /* terminated by {.name = NULL} */

#endif
