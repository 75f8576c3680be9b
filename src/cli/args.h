/* args.h — "--name value" options of the CLI, collected into a JSON object
 * (repeatable options become arrays; flags become true). */
#ifndef PARAPET_ARGS_H
#define PARAPET_ARGS_H

#include <jansson.h>
#include <stdbool.h>

struct opt {
    const char *name; /* without the leading "--" */
    bool repeatable;
    bool flag; /* takes no value */
};

/* Parses argv[0..argc) against opts (terminated by {NULL}); NULL with a
 * message on stderr for an unknown option, a missing value, a repeat of a
 * single option, or a stray argument. */
json_t *args_parse(int argc, char **argv, const struct opt *opts);

const char *arg_str(json_t *args, const char *name);      /* NULL if absent */
const char *arg_required(json_t *args, const char *name); /* prints the error */
bool arg_flag(json_t *args, const char *name);

#endif
