/* isolation.h — tenant isolation walked from the route table (isolation.c). */
#ifndef PARAPET_TEST_ISOLATION_H
#define PARAPET_TEST_ISOLATION_H

#include "http/fixture.h"

int isolation_walk(struct fixture *fx);

#endif
