/* waf_custom_rules.c — {WAF}/custom-rule: create, list, read, update,
 * delete, and the switch of all rules (gap A2.9; the model, its checks and
 * its ModSecurity form are waf/waf.h). Every written rule is compiled
 * and loaded into libmodsecurity first: a rule it refuses is a 400 with its
 * message. rule_name is unique (without case) among the domain port's
 * rules; a domain port holds at most WAF_CUSTOM_RULES_MAX rules.
 *
 * Read shape: the canonical rule plus "rule_id" (the path id, 16 random
 * hex) and "modsecurity_id" (the id its SecRule carries, which WAF event
 * logs report). POST answers {"rule_id"} (B.2.7: the document shows only the
 * envelope; the id is needed to address the rule). */
#include <stdio.h>
#include <string.h>

#include "api/ap/ap_policy.h"
#include "api/ap/waf_policy.h"
#include "core/catalogue.h"
#include "core/resource.h"
#include "waf/waf.h"

/* Copies the members of `from` named in `order` into a new object, in that
 * order (the store hands documents back with their keys sorted). */
static json_t *ordered(const json_t *from, const char *const *order, size_t n)
{
    json_t *o = json_object();
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_object_get(from, order[i]);
        if (v)
            json_object_set(o, order[i], v);
    }
    return o;
}

static json_t *rule_view(const char *id, const json_t *doc)
{
    static const char *const rule_order[] = {"rule_name", "description", "enable",      "conditions",
                                             "action",    "status",      "redirect_url"};
    static const char *const cond_order[] = {"field", "name", "operator", "value", "negate", "ignore_case"};
    json_int_t slot = json_integer_value(json_object_get(doc, "slot"));
    json_t *v =
        json_pack("{s:s,s:I}", "rule_id", id, "modsecurity_id", (json_int_t)(WAF_RULE_ID_BASE + slot));
    json_t *rule = ordered(doc, rule_order, sizeof rule_order / sizeof rule_order[0]);
    json_t *conds = json_array(), *c;
    size_t i;
    json_array_foreach (json_object_get(doc, "conditions"), i, c)
        json_array_append_new(conds, ordered(c, cond_order, sizeof cond_order / sizeof cond_order[0]));
    json_object_set_new(rule, "conditions", conds);
    json_object_update(v, rule);
    json_decref(rule);
    return v;
}

/* The domain port's rules as store rows (creation order), or NULL having
 * replied. *total counts them. */
static json_t *port_rules(struct req *r, const struct port_policy *chain, long *total)
{
    struct res_query q = {
        .kind = AP_WAF_CUSTOM_RULE.name,
        .customer_id = r->customer.id,
        .parent_rid = policy_owner(chain)->rid,
        .limit = WAF_CUSTOM_RULES_MAX + 1, /* every one: the maximum bounds them */
    };
    json_t *rows = NULL;
    int rc = r->store->ops->res_list(r->store, &q, &rows, total);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return NULL;
    }
    return req_hold(r, rows);
}

/* Every country of the rule's country conditions is one of the catalogue's
 * (ISO 3166 alpha-2, from iso-codes): an unknown code would make a rule that
 * never matches. 0, or -1 having replied. */
static int known_countries(struct req *r, const json_t *rule)
{
    size_t i;
    json_t *c, *known = NULL;
    json_array_foreach (json_object_get(rule, "conditions"), i, c) {
        if (strcmp(json_string_value(json_object_get(c, "field")), "country") != 0)
            continue;
        if (!known && !(known = catalogue_value(r, "countries")))
            return -1;
        json_t *value = json_object_get(c, "value");
        bool list = json_is_array(value);
        for (size_t k = 0; k < (list ? json_array_size(value) : 1); k++) {
            const char *code = json_string_value(list ? json_array_get(value, k) : value);
            if (json_object_get(known, code))
                continue;
            char where[48] = "";
            if (list)
                snprintf(where, sizeof where, "[%zu]", k);
            reply_error(r, E_FIELD_INVALID,
                        "conditions[%zu].value%s: %s is not one of the catalogue's countries", i, where,
                        code);
            return -1;
        }
    }
    return 0;
}

/* Create and update: the checked, canonical rule of the request body, which
 * libmodsecurity compiled, in r->prepared. Runs before the handler's
 * transaction: the compile is most of a rule write's CPU, and needs no
 * stored data (core/route.h). */
int waf_custom_rule_prepare(struct req *r)
{
    char err[WAF_ERR_LEN];
    json_t *body = r->body_fields ? r->body_fields : req_hold(r, json_object());
    json_t *rule = req_hold(r, waf_rule_check(body, err, sizeof err));
    if (!rule) {
        reply_waf_invalid(r, err);
        return -1;
    }
    r->prepared = rule;
    return 0;
}

/* The prepared rule, once its countries are the catalogue's; NULL having
 * replied. */
static json_t *request_rule(struct req *r)
{
    json_t *rule = r->prepared;
    return rule && known_countries(r, rule) == 0 ? rule : NULL;
}

/* The chain of the path, and the rule of {rule_id} when `rule` is given. */
static int load(struct req *r, struct port_policy *chain, struct resource *rule)
{
    if (policy_chain_load(r, chain) != 0)
        return -1;
    if (rule &&
        res_from_path(r, AP_WAF_CUSTOM_RULE.name, "rule_id", "custom rule", policy_owner(chain), rule) != 0)
        return -1;
    return 0;
}

static int reply_name_taken(struct req *r, const json_t *rule)
{
    return reply_error(r, E_CONFLICT, "rule_name: this domain port already has a rule named \"%s\"",
                       json_string_value(json_object_get(rule, "rule_name")));
}

int waf_custom_rule_create(struct req *r)
{
    struct port_policy chain;
    json_t *rule;
    if (load(r, &chain, NULL) != 0 || !(rule = request_rule(r)))
        return 0;
    /* the slots the domain port's rules hold: one member of each, without
     * reading every rule (a port holds up to 100) */
    int64_t slots[WAF_CUSTOM_RULES_MAX + 1];
    size_t total = 0;
    int rc = r->store->ops->res_child_ints(r->store, policy_owner(&chain)->rid, AP_WAF_CUSTOM_RULE.name, "slot",
                                           slots, WAF_CUSTOM_RULES_MAX + 1, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    if (total >= WAF_CUSTOM_RULES_MAX)
        return reply_error(r, E_LIMIT, "custom rule: a domain port holds at most %d rules",
                           WAF_CUSTOM_RULES_MAX);
    /* the lowest slot no rule of the domain port holds */
    bool used[WAF_CUSTOM_RULES_MAX + 1] = {false};
    for (size_t i = 0; i < total; i++)
        if (slots[i] >= 0 && slots[i] <= WAF_CUSTOM_RULES_MAX)
            used[slots[i]] = true;
    int slot = 0;
    while (used[slot])
        slot++;
    json_object_set_new(rule, "slot", json_integer(slot));
    struct resource res = {.parent_rid = policy_owner(&chain)->rid, .doc = rule};
    snprintf(res.customer_id, sizeof res.customer_id, "%s", r->customer.id);
    snprintf(res.name, sizeof res.name, "%s", json_string_value(json_object_get(rule, "rule_name")));
    rc = r->store->ops->res_create(r->store, &AP_WAF_CUSTOM_RULE, &res);
    if (rc == STORE_CONFLICT)
        return reply_name_taken(r, rule);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    return reply_result(r, json_pack("{s:s}", "rule_id", res.id));
}

int waf_custom_rule_list(struct req *r)
{
    struct port_policy chain;
    json_t *rows;
    long total;
    if (load(r, &chain, NULL) != 0 || !(rows = port_rules(r, &chain, &total)))
        return 0;
    json_t *out = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row)
        json_array_append_new(
            out, rule_view(json_string_value(json_object_get(row, "id")), json_object_get(row, "doc")));
    return reply_result(r, out);
}

int waf_custom_rule_get(struct req *r)
{
    struct port_policy chain;
    struct resource rule;
    if (load(r, &chain, &rule) != 0)
        return 0;
    return reply_result(r, rule_view(rule.id, rule.doc));
}

/* PUT replaces the whole rule; it keeps its id and slot. */
int waf_custom_rule_update(struct req *r)
{
    struct port_policy chain;
    struct resource rule;
    json_t *next;
    if (load(r, &chain, &rule) != 0 || !(next = request_rule(r)))
        return 0;
    json_object_set(next, "slot", json_object_get(rule.doc, "slot"));
    json_object_clear(rule.doc);
    json_object_update(rule.doc, next);
    snprintf(rule.name, sizeof rule.name, "%s", json_string_value(json_object_get(next, "rule_name")));
    int rc = r->store->ops->res_update(r->store, &rule);
    if (rc == STORE_CONFLICT)
        return reply_name_taken(r, next);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    return reply_result(r, NULL);
}

int waf_custom_rule_delete(struct req *r)
{
    struct port_policy chain;
    struct resource rule;
    if (load(r, &chain, &rule) != 0)
        return 0;
    int rc = r->store->ops->res_delete(r->store, rule.rid, NULL);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    return reply_result(r, NULL);
}

/* switch/{status}: sets "enable" of every rule of the domain port (rules
 * made later carry their own "enable", 1 unless given). */
int waf_custom_rule_switch(struct req *r)
{
    struct port_policy chain;
    json_t *rows;
    long total;
    if (load(r, &chain, NULL) != 0 || !(rows = port_rules(r, &chain, &total)))
        return 0;
    json_int_t on = field_int(r, "status", 0);
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        json_t *doc = json_object_get(row, "doc");
        if (json_integer_value(json_object_get(doc, "enable")) == on)
            continue;
        json_object_set_new(doc, "enable", json_integer(on));
        struct resource res = {
            .rid = json_integer_value(json_object_get(row, "rid")),
            .version = json_integer_value(json_object_get(row, "version")),
            .doc = doc,
        };
        snprintf(res.name, sizeof res.name, "%s", json_string_value(json_object_get(row, "name")));
        int rc = r->store->ops->res_update(r->store, &res);
        if (rc != STORE_OK)
            return reply_store_error(r, rc);
    }
    return reply_result(r, NULL);
}
