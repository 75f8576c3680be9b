/* meta.h — endpoints about the API itself (beyond the documents). */
#ifndef PARAPET_API_META_H
#define PARAPET_API_META_H

#include "core/req.h"

int meta_openapi(struct req *r); /* GET /api/openapi.json */

#endif
