/* ap.h — the handlers of src/routes/ap*.def (declarations only; routes.c includes this). */
#ifndef PARAPET_API_AP_H
#define PARAPET_API_AP_H

#include "core/req.h"

#endif
