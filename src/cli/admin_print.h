/* admin_print.h — how every `parapet admin` command answers: one JSON
 * object on stdout. A file of its own so that admin.c (which calls the
 * commands) and the commands' files (which print) do not call each other. */
#ifndef PARAPET_CLI_ADMIN_PRINT_H
#define PARAPET_CLI_ADMIN_PRINT_H

#include <jansson.h>

/* Prints one JSON object on stdout and takes it; returns the exit status
 * (0, or 1 when result is NULL). */
int admin_print(json_t *result);

#endif
