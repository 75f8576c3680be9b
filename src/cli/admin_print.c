/* admin_print.c — see admin_print.h. */
#include "cli/admin_print.h"

#include <stdio.h>
#include <stdlib.h>

int admin_print(json_t *result)
{
    if (!result)
        return 1;
    char *text = json_dumps(result, JSON_COMPACT);
    puts(text);
    free(text);
    json_decref(result);
    return 0;
}
