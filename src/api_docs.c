/* api_docs.c — expands api_docs.def and api_shapes.def (core/api_docs.h). */
#include "core/api_docs.h"

#include <string.h>

#define DOC(id_, summary_, result_, example_)                                                                \
    {.id = (id_), .summary = (summary_), .result = (result_), .example = (example_)},

const struct api_doc api_docs[] = {
#include "api_docs.def"
};
const size_t api_docs_count = sizeof api_docs / sizeof api_docs[0];

#define SHAPE(name_, shape_) {.name = (name_), .shape = (shape_)},

const struct api_shape api_shapes[] = {
#include "api_shapes.def"
};
const size_t api_shapes_count = sizeof api_shapes / sizeof api_shapes[0];

const struct api_doc *api_doc_find(const char *id)
{
    for (size_t i = 0; i < api_docs_count; i++)
        if (!strcmp(api_docs[i].id, id))
            return &api_docs[i];
    return NULL;
}
