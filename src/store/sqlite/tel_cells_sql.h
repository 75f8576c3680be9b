/* tel_cells_sql.h — SQL functions over destination cells (store/tel_cells.h),
 * registered with the minute vectors' (sq_tel_vector_functions). */
#ifndef PARAPET_SQ_TEL_CELLS_SQL_H
#define PARAPET_SQ_TEL_CELLS_SQL_H

#include <sqlite3.h>

int sq_tel_cells_functions(sqlite3 *db);

#endif
