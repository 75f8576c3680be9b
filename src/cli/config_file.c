/* config_file.c — see config_file.h. */
#include "cli/config_file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static char *trim(char *s)
{
    s += strspn(s, " \t");
    size_t n = strlen(s);
    while (n > 0 && strchr(" \t\r\n", s[n - 1]))
        s[--n] = '\0';
    return s;
}

static const struct opt *find(const struct opt *opts, const char *key)
{
    for (const struct opt *o = opts; o->name; o++)
        if (o->name[0] && strcmp(o->name, key) == 0)
            return o;
    return NULL;
}

/* A flag's value: 1 true, 0 false, -1 neither. */
static int boolean(const char *v)
{
    static const char *const yes[] = {"true", "yes", "on", "1"}, *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(v, yes[i]) == 0)
            return 1;
        if (strcasecmp(v, no[i]) == 0)
            return 0;
    }
    return -1;
}

/* One "key = value" line into out: NULL, or what is wrong with it. */
static const char *take_line(char *line, const struct opt *opts, json_t *out, json_t *seen)
{
    char *eq = strchr(line, '=');
    if (!eq)
        return "expected key = value";
    *eq = '\0';
    char *key = trim(line), *value = trim(eq + 1);
    const struct opt *o = find(opts, key);
    static char why[256];
    if (!o || o->cli_only) {
        snprintf(why, sizeof why, "unknown key '%.200s'%s", key,
                 o ? " (command line only)" : "");
        return why;
    }
    if (json_object_get(seen, key) && !o->repeatable) {
        snprintf(why, sizeof why, "'%.200s' is given twice", key);
        return why;
    }
    json_object_set_new(seen, key, json_true());
    if (o->flag) {
        int b = boolean(value);
        if (b < 0) {
            snprintf(why, sizeof why, "'%.200s' takes true or false", key);
            return why;
        }
        if (b)
            json_object_set_new(out, key, json_true());
        return NULL;
    }
    if (!*value) {
        snprintf(why, sizeof why, "'%.200s' needs a value", key);
        return why;
    }
    json_t *v = json_string(value);
    if (!v)
        return "the value is not valid UTF-8";
    if (!o->repeatable) {
        json_object_set_new(out, key, v);
        return NULL;
    }
    json_t *list = json_object_get(out, key);
    if (!list)
        json_object_set_new(out, key, list = json_array());
    json_array_append_new(list, v);
    return NULL;
}

json_t *config_file_parse(FILE *in, const char *name, const struct opt *opts)
{
    json_t *out = json_object(), *seen = json_object();
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    const char *why = NULL;
    while (getline(&line, &cap, in) >= 0) {
        lineno++;
        char *t = trim(line);
        if (!*t || *t == '#')
            continue;
        if ((why = take_line(t, opts, out, seen)))
            break;
    }
    free(line);
    json_decref(seen);
    if (why) {
        fprintf(stderr, "parapet: %s line %ld: %s\n", name, lineno, why);
        json_decref(out);
        return NULL;
    }
    return out;
}

json_t *config_file_read(const char *path, const struct opt *opts)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "parapet: cannot read the configuration file %s: %s\n", path, strerror(errno));
        return NULL;
    }
    json_t *out = config_file_parse(in, path, opts);
    fclose(in);
    return out;
}

void config_merge(json_t *args, json_t *file)
{
    const char *key;
    json_t *v;
    json_object_foreach (file, key, v)
        if (!json_object_get(args, key))
            json_object_set(args, key, v);
}
