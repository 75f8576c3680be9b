/* op_mitigation.h — the handlers of src/routes/op_mitigation.def (declarations only). */
#ifndef PARAPET_API_OP_MITIGATION_H
#define PARAPET_API_OP_MITIGATION_H

#include "core/req.h"

#endif
