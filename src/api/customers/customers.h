/* customers.h — GET /spe/customers and GET /spe/customer/{customer_id}. */
#ifndef PARAPET_CUSTOMERS_H
#define PARAPET_CUSTOMERS_H

#include "core/req.h"

int customers_list(struct req *r);
int customers_get(struct req *r);

#endif
