/* args.h — "--name value" options of the CLI, collected into a JSON object
 * (repeatable options become arrays; flags become true). */
#ifndef PARAPET_ARGS_H
#define PARAPET_ARGS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct opt {
    const char *name; /* without the leading "--"; "" for a heading */
    bool repeatable;
    bool flag; /* takes no value */
    /* What `--help`, the configuration file and the man pages say of it
     * (serve_options.c, options_doc.c): */
    const char *arg;     /* the value's placeholder, e.g. "DIR" */
    const char *dflt;    /* the default, as documented (NULL: none) */
    const char *help;    /* unwrapped sentences */
    const char *heading; /* a heading entry (name "") titles the entries after it */
    bool cli_only;       /* not a configuration file key (--help, --config) */
};

/* A heading entry of an option table. */
#define OPT_HEADING(title) {.name = "", .heading = title}

/* Parses argv[0..argc) against opts (terminated by {NULL}; headings are
 * skipped); NULL with a message on stderr for an unknown option, a missing
 * value, a repeat of a single option, or a stray argument. */
json_t *args_parse(int argc, char **argv, const struct opt *opts);

const char *arg_str(json_t *args, const char *name);      /* NULL if absent */
const char *arg_required(json_t *args, const char *name); /* prints the error */
bool arg_flag(json_t *args, const char *name);
/* An integer option from lo to hi (dflt when absent): 0, or -1 after a
 * message on stderr. */
int arg_long(json_t *args, const char *name, long dflt, long lo, long hi, long *out);
/* "ADDR:PORT" or "[V6]:PORT" (an IP literal; with port_optional, "ADDR"
 * alone leaves *port at 0): 0, or -1 after a message on stderr. */
int arg_address_port(const char *name, const char *text, bool port_optional, char *host, size_t host_size,
                     int *port);

#endif
