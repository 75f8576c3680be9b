/* ap_policy.h — the handlers of src/routes/ap_policy.def (declarations only). */
#ifndef PARAPET_API_AP_POLICY_H
#define PARAPET_API_AP_POLICY_H

#include "core/req.h"

#endif
