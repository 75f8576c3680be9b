/* cp.h — the handlers of src/routes/cp*.def (declarations only; routes.c includes this). */
#ifndef PARAPET_API_CP_H
#define PARAPET_API_CP_H

#include "core/req.h"

#endif
