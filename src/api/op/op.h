/* op.h — the handlers of src/routes/op*.def (declarations only; routes.c includes this). */
#ifndef PARAPET_API_OP_H
#define PARAPET_API_OP_H

#include "core/req.h"

#endif
