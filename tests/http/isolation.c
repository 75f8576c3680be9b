/* isolation.c — tenant isolation, generated from the route table: for every
 * route that names a resource (a path parameter, or an id field of its
 * body such as DNS's zone_name), the resource is created as its owner
 * (customer C1), then the route is called with tokens that may not see it:
 * another portal's, installed apps of other customers, and the owner's
 * portal acting for another of its customers. Each answer must be exactly
 * (status and body) the answer the same token gets for an unknown id, and
 * the owner's resources must read the same afterwards.
 *
 * How to create and read each kind of resource is data:
 * tests/http/isolation.json. A new route is covered without new code; a
 * route naming a parameter no recipe provides fails, so it cannot be
 * forgotten. */
#include "http/isolation.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/route.h"
#include "http/harness.h"

#define RECIPES   "tests/http/isolation.json"
#define FAIL(...) (check_fail("isolation", __VA_ARGS__), 1)

/* "$NAME" -> the fixture variable; anything else as is. */
static const char *value_of(const char *s)
{
    return s && s[0] == '$' ? var_get(s + 1) : s;
}

/* Whether scope `key` ("op", "op.auto_mitigation.flex_filter") covers the
 * dotted name (a route id or another scope): equal, or a prefix up to a dot. */
static bool covers(const char *key, const char *name)
{
    size_t n = strlen(key);
    return strncmp(key, name, n) == 0 && (name[n] == '\0' || name[n] == '.');
}

/* The ids the paths of `name` (a route id, or a recipe's scope) use: the
 * common ones under "*" (customer_id), then those of every scope that
 * covers the name, the narrower over the wider (all: scope -> {param ->
 * value}). A scope is a route family ("op") or a narrower group of routes
 * ("op.auto_mitigation.flex_filter", whose {filter_id} is another kind's).
 * New object. */
static json_t *family_ids(json_t *all, const char *name)
{
    json_t *ids = json_deep_copy(json_object_get(all, "*"));
    for (size_t len = 1; len < 64; len++) { /* wider scopes first */
        const char *key;
        json_t *v;
        json_object_foreach (all, key, v)
            if (strlen(key) == len && strcmp(key, "*") != 0 && covers(key, name))
                json_object_update(ids, v);
    }
    return ids;
}

/* The map of a recipe's family in all (made if absent). */
static json_t *recipe_family(json_t *all, json_t *recipe)
{
    const char *family = json_string_value(json_object_get(recipe, "family"));
    if (!family)
        family = "*";
    json_t *m = json_object_get(all, family);
    if (!m) {
        m = json_object();
        json_object_set_new(all, family, m);
    }
    return m;
}

/* Fills {param} placeholders of a path template from ids (missing: "").
 * Returns -1 when a parameter has no value. */
static int fill_path(const char *tmpl, json_t *ids, char *out, size_t size, const char **missing)
{
    size_t n = 0;
    for (const char *p = tmpl; *p && n + 1 < size;) {
        if (*p != '{') {
            out[n++] = *p++;
            continue;
        }
        const char *end = strchr(p, '}');
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(end - p - 1), p + 1);
        const char *v = json_string_value(json_object_get(ids, name));
        if (!v) {
            static char miss[64];
            snprintf(miss, sizeof miss, "%s", name);
            *missing = miss;
            return -1;
        }
        n += (size_t)snprintf(out + n, size - n, "%s", v);
        p = end + 1;
    }
    out[n < size ? n : size - 1] = '\0';
    return 0;
}

/* Fills {param} placeholders in the string members of a JSON body's
 * objects (one level of an array of records, as the ingest takes), so a
 * recipe can name what earlier recipes made. -1 when one has no value. */
static int fill_json(json_t *body, json_t *ids, const char **missing)
{
    json_t *records = json_is_array(body) ? body : NULL, *record;
    size_t i;
    json_array_foreach (records, i, record) {
        const char *key;
        json_t *v;
        json_object_foreach (record, key, v) {
            char filled[512];
            if (!json_is_string(v) || !strchr(json_string_value(v), '{'))
                continue;
            if (fill_path(json_string_value(v), ids, filled, sizeof filled, missing) != 0)
                return -1;
            json_string_set(v, filled);
        }
    }
    return 0;
}

struct answer {
    long status;
    char *body;
};

/* One request: method, a path under the API (or /oauth), a token, and an
 * optional JSON body. */
/* application/x-www-form-urlencoded text of {key: string | [strings]}
 * (arrays as repeated keys). */
static char *form_encode(json_t *form)
{
    size_t cap = 256, n = 0;
    char *out = malloc(cap);
    out[0] = '\0';
    const char *k;
    json_t *v;
    json_object_foreach (form, k, v) {
        size_t count = json_is_array(v) ? json_array_size(v) : 1;
        for (size_t i = 0; i < count; i++) {
            json_t *one = json_is_array(v) ? json_array_get(v, i) : v;
            char value[64];
            const char *text = json_string_value(one);
            if (!text) {
                snprintf(value, sizeof value, "%lld", (long long)json_integer_value(one));
                text = value;
            }
            for (int part = 0; part < 2; part++) {
                const char *src = part ? text : k;
                if (n + 3 * strlen(src) + 4 > cap)
                    out = realloc(out, cap = 2 * (n + 3 * strlen(src) + 4));
                if (part == 0 && n)
                    out[n++] = '&';
                for (const unsigned char *c = (const unsigned char *)src; *c; c++)
                    n += (size_t)(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~",
                                         *c)
                                      ? sprintf(out + n, "%c", *c)
                                      : sprintf(out + n, "%%%02X", *c));
                if (part == 0)
                    out[n++] = '=';
                out[n] = '\0';
            }
        }
    }
    return out;
}

static struct answer call(const char *method, const char *path, const char *token, json_t *json,
                          const char *ca_file)
{
    char url[2048], bearer[512];
    /* telemetry a recipe needs (DDoS events) comes through the operator's
     * ingest, with its bearer token ("bearer" of a recipe's create) */
    bool ingest = token && strncmp(token, "Bearer ", 7) == 0;
    const char *base =
        strncmp(path, "/oauth", 6) == 0 || strncmp(path, "/ingest", 7) == 0 ? var_get("BASE") : var_get("API");
    if (ingest)
        snprintf(url, sizeof url, "%s%s", base, path);
    else
        snprintf(url, sizeof url, "%s%s%saccess_token=%s", base, path, strchr(path, '?') ? "&" : "?",
                 token ? token : "");
    /* a body is JSON, or {"form": {...}} for a form */
    json_t *form = json_object_get(json, "form");
    char *text = form ? form_encode(form) : json ? json_dumps(json, JSON_COMPACT) : NULL;
    struct http_request rq = {.method = method, .url = url, .ca_file = ca_file};
    if (text) {
        rq.body = text;
        rq.body_len = strlen(text);
        rq.headers[rq.nheaders++] =
            form ? "Content-Type: application/x-www-form-urlencoded" : "Content-Type: application/json";
    }
    if (ingest) {
        snprintf(bearer, sizeof bearer, "Authorization: %s", token);
        rq.headers[rq.nheaders++] = bearer;
    }
    struct http_response rs;
    http_do(&rq, &rs);
    free(text);
    struct answer a = {rs.status, strdup(rs.body ? rs.body : "")};
    http_response_free(&rs);
    return a;
}

/* Creates a recipe's resource as its owner; records its id under the
 * recipe's name in ids. */
static int create(json_t *recipe, json_t *all, const char *ca_file)
{
    json_t *c = json_object_get(recipe, "create");
    const char *name = json_string_value(json_object_get(recipe, "name"));
    json_t *mine = recipe_family(all, recipe);
    const char *family = json_string_value(json_object_get(recipe, "family"));
    json_t *ids = family_ids(all, family ? family : "*");
    char path[1024];
    const char *missing = NULL;
    int filled =
        c ? fill_path(json_string_value(json_object_get(c, "path")), ids, path, sizeof path, &missing) : 0;
    json_t *body = NULL;
    if (c && filled == 0) {
        body = json_object_get(c, "form") ? json_pack("{s:O}", "form", json_object_get(c, "form"))
                                          : json_deep_copy(json_object_get(c, "json"));
        filled = fill_json(body, ids, &missing);
    }
    json_decref(ids);
    if (!c) { /* only read (a setting of a resource made before), or a literal value */
        if (json_object_get(recipe, "value"))
            json_object_set(mine, name, json_object_get(recipe, "value"));
        return 0;
    }
    if (filled != 0) {
        json_decref(body);
        return FAIL("recipe %s: no value for {%s} yet (order the recipes)", name, missing);
    }
    char bearer[512];
    const char *token = value_of(json_string_value(json_object_get(recipe, "token")));
    if (json_object_get(c, "bearer")) {
        snprintf(bearer, sizeof bearer, "Bearer %s", value_of(json_string_value(json_object_get(c, "bearer"))));
        token = bearer;
    }
    struct answer a = call(json_string_value(json_object_get(c, "method")), path, token, body, ca_file);
    json_decref(body);
    json_t *reply = json_loads(a.body, 0, NULL);
    const char *id_path = json_string_value(json_object_get(recipe, "id"));
    json_t *id = id_path ? json_path(reply, id_path) : json_object_get(recipe, "value");
    int bad = 0;
    if (a.status != 200 || !id) {
        bad = FAIL("recipe %s: create answered %ld %s", name, a.status, a.body);
    } else {
        char text[64];
        if (json_is_integer(id))
            snprintf(text, sizeof text, "%lld", (long long)json_integer_value(id));
        else
            snprintf(text, sizeof text, "%s", json_string_value(id));
        json_object_set_new(mine, name, json_string(text));
    }
    json_decref(reply);
    free(a.body);
    return bad;
}

/* What the owner reads of every created resource, in one string. */
static char *snapshot(json_t *recipes, json_t *all, const char *ca_file)
{
    size_t len = 0, i;
    char *text = strdup("");
    json_t *recipe;
    json_array_foreach (recipes, i, recipe) {
        json_t *read = json_object_get(recipe, "read");
        const char *family = json_string_value(json_object_get(recipe, "family"));
        json_t *ids = family_ids(all, family ? family : "*");
        char path[1024];
        const char *missing;
        int filled = read ? fill_path(json_string_value(json_object_get(read, "path")), ids, path,
                                      sizeof path, &missing)
                          : -1;
        json_decref(ids);
        if (filled != 0)
            continue;
        json_t *body = json_deep_copy(json_object_get(read, "json"));
        struct answer a = call(json_string_value(json_object_get(read, "method")), path,
                               value_of(json_string_value(json_object_get(recipe, "token"))), body, ca_file);
        json_decref(body);
        size_t add = strlen(a.body) + 32;
        text = realloc(text, len + add);
        len += (size_t)snprintf(text + len, add, "%ld %s\n", a.status, a.body);
        free(a.body);
    }
    return text;
}

/* An id of the same shape that names nothing. */
static const char *unknown_like(const char *v)
{
    return v[strspn(v, "0123456789")] == '\0' ? "987654321" : "0000000000000000";
}

/* The body of a route whose fields name a resource (e.g. zone_name), with
 * the owner's value or an unknown one; NULL when it names none. */
/* Whether a field of the route comes in the query (else in the body). */
static bool in_query(const struct route *rt, const struct field_spec *f)
{
    return f->in == IN_QUERY || (f->in == IN_ANY && rt->encodings == ENC_NONE);
}

/* Appends "?field=id" for the query fields of the route that name a
 * resource (e.g. api_task_id), the owner's or an unknown one. */
static void id_query(const struct route *rt, json_t *field_ids, bool owner, char *path, size_t size)
{
    for (const struct field_spec *f = rt->fields; f && f->name; f++) {
        json_t *recipe = json_object_get(field_ids, f->name);
        if (!recipe || !in_query(rt, f))
            continue;
        size_t n = strlen(path);
        snprintf(path + n, size - n, "%s%s=%s", strchr(path, '?') ? "&" : "?", f->name,
                 json_string_value(json_object_get(recipe, owner ? "owner" : "unknown")));
    }
}

static json_t *id_body(const struct route *rt, json_t *body_ids, bool owner)
{
    if (!(rt->encodings & ENC_JSON))
        return NULL;
    json_t *body = NULL;
    for (const struct field_spec *f = rt->fields; f && f->name; f++) {
        json_t *recipe = json_object_get(body_ids, f->name);
        if (!recipe || in_query(rt, f))
            continue;
        if (!body)
            body = json_object();
        json_object_set_new(body, f->name,
                            json_string(owner ? json_string_value(json_object_get(recipe, "owner"))
                                              : json_string_value(json_object_get(recipe, "unknown"))));
    }
    return body;
}

/* text with every whole-word `from` replaced by `to` (new string). */
static char *replace_all(const char *text, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), cap = strlen(text) + 1, n = 0;
    char *out = malloc(cap);
    for (const char *p = text; *p;) {
        /* whole words only: "1" is not replaced inside "40300001" */
        bool hit = nf && strncmp(p, from, nf) == 0 && (p == text || !isalnum((unsigned char)p[-1])) &&
                   !isalnum((unsigned char)p[nf]);
        size_t add = hit ? nt : 1;
        if (n + add + 1 > cap)
            out = realloc(out, cap = 2 * (n + add + 1));
        memcpy(out + n, hit ? to : p, add);
        n += add;
        p += hit ? nf : 1;
    }
    out[n] = '\0';
    return out;
}

/* An answer may echo the id it was asked about ("no zone X"): the owner's
 * ids are put back to the unknown ones before comparing. */
static void unecho(struct answer *a, json_t *owner_ids, json_t *unknown_ids, json_t *body_ids)
{
    const char *k;
    json_t *v;
    json_object_foreach (body_ids, k, v) {
        char *fixed = replace_all(a->body, json_string_value(json_object_get(v, "owner")),
                                  json_string_value(json_object_get(v, "unknown")));
        free(a->body);
        a->body = fixed;
    }
    json_object_foreach (owner_ids, k, v) {
        const char *to = json_string_value(json_object_get(unknown_ids, k));
        if (!to || !strcmp(k, "customer_id"))
            continue;
        char *fixed = replace_all(a->body, json_string_value(v), to);
        free(a->body);
        a->body = fixed;
    }
}

/* Calls the route as `token` with the owner's ids and with unknown ids;
 * the two answers must be the same refusal. */
static int compare(const struct route *rt, const char *token, const char *token_name, json_t *owner_ids,
                   json_t *unknown_ids, json_t *body_ids, const char *ca_file)
{
    char owned[1024], unknown[1024];
    const char *missing = NULL;
    if (fill_path(rt->path, owner_ids, owned, sizeof owned, &missing) != 0)
        return FAIL("%s: no recipe gives {%s} (tests/http/isolation.json)", rt->id, missing);
    fill_path(rt->path, unknown_ids, unknown, sizeof unknown, &missing);
    id_query(rt, body_ids, true, owned, sizeof owned);
    id_query(rt, body_ids, false, unknown, sizeof unknown);
    const char *method = method_name(rt->method);
    json_t *b1 = id_body(rt, body_ids, true), *b2 = id_body(rt, body_ids, false);
    struct answer a = call(method, owned, token, b1, ca_file), u = call(method, unknown, token, b2, ca_file);
    json_decref(b1);
    json_decref(b2);
    unecho(&a, owner_ids, unknown_ids, body_ids);
    int bad = 0;
    if (a.status != u.status || strcmp(a.body, u.body) != 0)
        bad = FAIL("%s %s as %s: %ld %s, but for an unknown id: %ld %s", method, rt->path, token_name,
                   a.status, a.body, u.status, u.body);
    else if (a.status < 400)
        bad = FAIL("%s %s as %s: answered %ld %s", method, rt->path, token_name, a.status, a.body);
    free(a.body);
    free(u.body);
    return bad;
}

/* Whether the route names a resource: a path parameter, or a body id field. */
static bool names_resource(const struct route *rt, json_t *body_ids)
{
    if (strchr(rt->path, '{'))
        return true;
    for (const struct field_spec *f = rt->fields; f && f->name; f++)
        if (json_object_get(body_ids, f->name) && (in_query(rt, f) || (rt->encodings & ENC_JSON)))
            return true;
    return false;
}

/* Routes the recipes exempt: those that create a resource by a name that is
 * unique on the platform (a taken name is a 409 for everyone, by design). */
static bool exempt(const struct route *rt, json_t *cfg)
{
    size_t i;
    json_t *id;
    json_array_foreach (json_object_get(cfg, "creating_by_name"), i, id)
        if (strcmp(json_string_value(id), rt->id) == 0)
            return true;
    return false;
}

static int walk_route(const struct route *rt, json_t *cfg, json_t *all, const char *ca_file, int *covered)
{
    json_t *body_ids = json_object_get(cfg, "body_ids");
    if (rt->access == ACCESS_PUBLIC || !names_resource(rt, body_ids) || exempt(rt, cfg))
        return 0;
    (*covered)++;
    json_t *ids = family_ids(all, rt->id);
    json_t *literals = json_object_get(cfg, "literal_params");
    /* unknown ids of the same shapes; the path's customer stays the owner's
     * for foreign tokens (they must not see it at all) */
    json_t *unknown = json_object();
    const char *k;
    json_t *v;
    json_object_foreach (ids, k, v) /* values that are not ids (a switch state) stay */
        json_object_set_new(unknown, k,
                            json_object_get(literals, k) ? json_incref(v)
                                                         : json_string(unknown_like(json_string_value(v))));
    int bad = 0;
    size_t i;
    json_t *t;
    json_array_foreach (json_object_get(cfg, "foreign_tokens"), i, t)
        bad |= compare(rt, value_of(json_string_value(t)), json_string_value(t), ids, unknown, body_ids,
                       ca_file);
    /* the owner's portal, acting for another of its customers */
    if (strstr(rt->path, "{customer_id}") && strchr(strstr(rt->path, "{customer_id}") + 1, '{')) {
        json_t *mixed = json_deep_copy(ids), *other = json_deep_copy(unknown);
        const char *sibling = value_of(json_string_value(json_object_get(cfg, "sibling_customer")));
        json_object_set_new(mixed, "customer_id", json_string(sibling));
        json_object_set_new(other, "customer_id", json_string(sibling));
        bad |= compare(rt, value_of(json_string_value(json_object_get(cfg, "owner_token"))),
                       "the owner's portal for another of its customers", mixed, other, body_ids, ca_file);
        json_decref(mixed);
        json_decref(other);
    }
    json_decref(unknown);
    json_decref(ids);
    return bad;
}

/* Deletes what the recipes made (last first), so that no other test meets
 * it. */
static int clean_up(json_t *recipes, json_t *all, const char *ca_file)
{
    int bad = 0;
    for (size_t i = json_array_size(recipes); i-- > 0;) {
        json_t *recipe = json_array_get(recipes, i), *del = json_object_get(recipe, "delete");
        const char *family = json_string_value(json_object_get(recipe, "family"));
        json_t *ids = family_ids(all, family ? family : "*");
        char path[1024];
        const char *missing;
        int filled =
            del ? fill_path(json_string_value(json_object_get(del, "path")), ids, path, sizeof path, &missing)
                : -1;
        json_decref(ids);
        if (filled != 0)
            continue;
        json_t *body = json_deep_copy(json_object_get(del, "json"));
        struct answer a = call(json_string_value(json_object_get(del, "method")), path,
                               value_of(json_string_value(json_object_get(recipe, "token"))), body, ca_file);
        json_decref(body);
        if (a.status != 200)
            bad |= FAIL("recipe %s: delete answered %ld %s",
                        json_string_value(json_object_get(recipe, "name")), a.status, a.body);
        free(a.body);
    }
    return bad;
}

int isolation_walk(struct fixture *fx)
{
    json_error_t e;
    json_t *cfg = json_load_file(RECIPES, 0, &e);
    if (!cfg)
        return FAIL("%s: %s (line %d)", RECIPES, e.text, e.line);
    json_t *recipes = json_object_get(cfg, "resources");
    json_t *ids = json_object(), *common = json_object(); /* family -> {param -> id} */
    json_object_set_new(common, "customer_id",
                        json_string(value_of(json_string_value(json_object_get(cfg, "owner_customer")))));
    json_object_set_new(ids, "*", common);
    json_t *literals = json_object_get(cfg, "literal_params");
    const char *lk;
    json_t *lv;
    json_object_foreach (literals, lk, lv)
        json_object_set(common, lk, lv);
    int bad = 0;
    size_t i;
    json_t *recipe;
    json_array_foreach (recipes, i, recipe)
        bad |= create(recipe, ids, fx->ca_file);
    /* body id fields (e.g. zone_name): the owner's value and an unknown one */
    json_t *body_ids = json_object_get(cfg, "body_ids");
    const char *k;
    json_t *v;
    json_object_foreach (body_ids, k, v) {
        json_t *fam = json_object_get(ids, json_string_value(json_object_get(v, "family")));
        json_object_set_new(v, "owner",
                            json_string(json_string_value(
                                json_object_get(fam, json_string_value(json_object_get(v, "from"))))));
    }
    char *before = snapshot(recipes, ids, fx->ca_file);
    int covered = 0;
    for (size_t r = 0; r < routes_count; r++) {
        bad |= walk_route(&routes[r], cfg, ids, fx->ca_file, &covered);
        if (routes[r].method == M_GET)
            continue;
        char *after = snapshot(recipes, ids, fx->ca_file);
        if (strcmp(before, after) != 0)
            bad |= FAIL("%s %s with a foreign token changed the owner's resources:\nbefore %s\nafter %s",
                        method_name(routes[r].method), routes[r].path, before, after);
        free(after);
    }
    fprintf(stderr, "  isolation: %d routes naming a resource walked with %zu foreign tokens\n", covered,
            json_array_size(json_object_get(cfg, "foreign_tokens")) + 1);
    free(before);
    bad |= clean_up(recipes, ids, fx->ca_file);
    json_decref(ids);
    json_decref(cfg);
    return bad;
}
