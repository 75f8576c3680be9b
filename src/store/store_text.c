/* store_text.c — see store_text.h. */
#include "store/store_text.h"

#include "base/text.h"

#include <stdlib.h>
#include <string.h>

/* The multi-signer addresses as the JSON text the column keeps (malloc'd). */
char *dns_signers_text(const struct dns_zone *z)
{
    json_t *list = json_array();
    for (int i = 0; i < z->n_signers; i++)
        json_array_append_new(list, json_string(z->signers[i]));
    char *text = json_dumps(list, JSON_COMPACT);
    json_decref(list);
    return text;
}

void dns_signers_from_text(struct dns_zone *z, const char *text)
{
    json_t *list = json_loads(text ? text : "[]", 0, NULL);
    size_t i;
    json_t *v;
    z->n_signers = 0;
    json_array_foreach (list, i, v) {
        if (z->n_signers < DNS_MAX_SIGNERS && json_is_string(v))
            copy_text(z->signers[z->n_signers++], sizeof z->signers[0], json_string_value(v));
    }
    json_decref(list);
}

/* "%<search, lowercased, with LIKE's wildcards escaped>%" */
void dns_like_pattern(const char *search, char *out, size_t size)
{
    size_t o = 0;
    out[o++] = '%';
    for (const char *p = search; *p && o + 4 < size; p++) {
        char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
        if (c == '%' || c == '_' || c == '\\')
            out[o++] = '\\';
        out[o++] = c;
    }
    out[o++] = '%';
    out[o] = '\0';
}

json_t *resource_row_json(const struct resource *r)
{
    return json_pack("{s:I,s:s,s:s,s:s,s:I,s:s,s:O,s:I,s:I,s:I}", "rid", (json_int_t)r->rid, "id", r->id,
                     "kind", r->kind, "customer_id", r->customer_id, "parent_rid", (json_int_t)r->parent_rid,
                     "name", r->name, "doc", r->doc, "created_at", (json_int_t)r->created_at, "updated_at",
                     (json_int_t)r->updated_at, "version", (json_int_t)r->version);
}

char *resource_doc_text(const json_t *doc)
{
    return doc ? json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS) : strdup("{}");
}

