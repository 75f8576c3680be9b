/* errors.h — error codes of the envelope and their HTTP statuses. */
#ifndef PARAPET_ERRORS_H
#define PARAPET_ERRORS_H

enum err {
#define ERR(name, code, status, meaning) name,
#include "core/errors.def"
#undef ERR
    E__COUNT
};

long err_code(enum err e);  /* the 8-digit envelope code */
int err_status(enum err e); /* the HTTP status */
const char *err_meaning(enum err e);

#endif
