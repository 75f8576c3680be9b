/* ingest.h — the operator's telemetry ingest endpoint (docs/telemetry.md). */
#ifndef PARAPET_API_INGEST_H
#define PARAPET_API_INGEST_H

#include "core/req.h"

int ingest_records(struct req *r);

#endif
