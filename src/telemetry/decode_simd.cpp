// decode_simd.cpp — see decode_simd.h. simdjson validates the whole input's
// UTF-8 and structure when it indexes it; values are checked as they are
// read (On-Demand), so every value is read here, none skipped.
#include "telemetry/decode_simd.h"

#include <simdjson.h>

#include <cstdlib>
#include <cstring>
#include <new>

using namespace simdjson;

struct tel_simd {
    ondemand::parser parser;
    char *buf = nullptr; // the line and simdjson's padding after it
    size_t cap = 0;
};

extern "C" struct tel_simd *tel_simd_new(void)
{
    return new (std::nothrow) tel_simd();
}

extern "C" void tel_simd_free(struct tel_simd *d)
{
    if (!d)
        return;
    std::free(d->buf);
    delete d;
}

// One member's value into f: false for what the caller must decline.
static bool read_value(ondemand::value v, struct tel_field *f)
{
    ondemand::json_type type;
    if (v.type().get(type) != SUCCESS)
        return false;
    switch (type) {
    case ondemand::json_type::string: {
        std::string_view s;
        if (v.get_string().get(s) != SUCCESS || std::memchr(s.data(), '\0', s.size()))
            return false; // jansson refuses \u0000
        f->type = TEL_F_STRING;
        f->str = s.data();
        f->len = s.size();
        return true;
    }
    case ondemand::json_type::number: {
        int64_t i;
        if (v.get_int64().get(i) != SUCCESS)
            return false; // a real, or beyond int64: no rule takes it, or jansson refuses it
        f->type = TEL_F_INTEGER;
        f->i = i;
        return true;
    }
    case ondemand::json_type::null: {
        bool is_null;
        if (v.is_null().get(is_null) != SUCCESS || !is_null)
            return false;
        f->type = TEL_F_NULL;
        return true;
    }
    default:
        return false; // booleans, arrays and objects: no rule takes them
    }
}

static int fields(struct tel_simd *d, size_t len, struct tel_fields *out)
{
    ondemand::document doc;
    ondemand::object obj;
    if (d->parser.iterate(d->buf, len, d->cap).get(doc) != SUCCESS || doc.get_object().get(obj) != SUCCESS)
        return -1;
    out->present = 0;
    for (auto field : obj) {
        std::string_view key;
        if (field.error() != SUCCESS || field.unescaped_key().get(key) != SUCCESS)
            return -1;
        int id = tel_member_id(key.data(), key.size());
        if (id < 0 || (out->present >> id & 1))
            return -1; // unknown (refused), or a duplicate (jansson refuses it)
        ondemand::value value;
        if (field.value().get(value) != SUCCESS || !read_value(value, &out->f[id]))
            return -1;
        out->present |= UINT64_C(1) << id;
    }
    const char *rest;
    if (doc.current_location().get(rest) != OUT_OF_BOUNDS)
        return -1; // something after the object
    return 0;
}

extern "C" int tel_simd_fields(struct tel_simd *d, const char *text, size_t len, struct tel_fields *out)
{
    if (len + SIMDJSON_PADDING > d->cap) {
        size_t cap = 2 * len + SIMDJSON_PADDING;
        char *buf = static_cast<char *>(std::realloc(d->buf, cap));
        if (!buf)
            return -1;
        d->buf = buf;
        d->cap = cap;
    }
    std::memcpy(d->buf, text, len);
    std::memset(d->buf + len, 0, SIMDJSON_PADDING);
    return fields(d, len, out);
}
