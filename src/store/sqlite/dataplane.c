/* sqlite/dataplane.c — the per-site deploy states of the data planes
 * (006_dataplane.sql). */
#include <time.h>

#include "store/sqlite/db.h"

int sq_dataplane_state_set(struct store *s, const char *plane, int64_t site_rid, const char *state,
                           const char *reason, const char *digest, const char *deployed)
{
    /* Only while the site exists: a deploy pass renders a snapshot, and a site
     * deleted meanwhile (its states went with it, 006's trigger) must not get
     * a state back that nothing would ever remove. */
    static const char sql[] =
        "INSERT INTO dataplane_state (plane, site_rid, state, reason, digest, deployed, updated_at) "
        "SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE EXISTS (SELECT 1 FROM resources WHERE rid = ?2) "
        "ON CONFLICT (plane, site_rid) DO UPDATE SET "
        "state = excluded.state, reason = excluded.reason, digest = excluded.digest, "
        "deployed = coalesce(excluded.deployed, dataplane_state.deployed), updated_at = excluded.updated_at";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, plane);
    sqlite3_bind_int64(st, 2, site_rid);
    BIND_TEXT(st, 3, state);
    BIND_TEXT(st, 4, reason ? reason : "");
    BIND_TEXT(st, 5, digest ? digest : "");
    if (deployed)
        BIND_TEXT(st, 6, deployed);
    sqlite3_bind_int64(st, 7, (sqlite3_int64)time(NULL));
    return db_exec_stmt(s, st);
}

int sq_dataplane_states(struct store *s, const char *plane, int64_t site_rid, json_t **out)
{
    static const char sql[] =
        "SELECT d.plane, d.site_rid, r.kind AS site_kind, r.id AS site_id, r.customer_id, d.state, d.reason, "
        "d.digest, d.deployed, d.updated_at FROM dataplane_state d JOIN resources r ON r.rid = d.site_rid "
        "WHERE (?1 IS NULL OR d.plane = ?1) AND (?2 = 0 OR d.site_rid = ?2) ORDER BY d.plane, d.site_rid";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    if (plane)
        BIND_TEXT(st, 1, plane);
    sqlite3_bind_int64(st, 2, site_rid);
    return db_rows_json(s, st, out);
}
