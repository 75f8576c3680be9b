/* errors.c — lookup tables built from errors.def. */
#include "core/errors.h"

static const struct {
    long code;
    int status;
    const char *meaning;
} catalogue[] = {
#define ERR(name, code, status, meaning) {code, status, meaning},
#include "core/errors.def"
#undef ERR
};

long err_code(enum err e)
{
    return catalogue[e].code;
}
int err_status(enum err e)
{
    return catalogue[e].status;
}
const char *err_meaning(enum err e)
{
    return catalogue[e].meaning;
}
