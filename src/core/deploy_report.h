/* deploy_report.h — a site's deploy states in its family's site report:
 * where its settings stand in each data plane that renders it (FastNetMon,
 * BIRD, nginx): [{"plane", "state" (pending, deployed, failed), "reason"
 * (the checker's message, or what the plane cannot express), "updated_at"}]. */
#ifndef PARAPET_DEPLOY_REPORT_H
#define PARAPET_DEPLOY_REPORT_H

#include <jansson.h>
#include <stdint.h>

#include "core/req.h"

/* The array (new reference; empty when no data plane deployed the site),
 * or NULL after replying with a store error. */
json_t *deploy_report(struct req *r, int64_t site_rid);

#endif
