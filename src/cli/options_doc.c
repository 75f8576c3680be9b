/* options_doc.c — see options_doc.h. */
#include "cli/options_doc.h"

#include <string.h>

enum { USAGE_WIDTH = 100, USAGE_HELP_COL = 29, CONFIG_WIDTH = 78 };

/* The help text with its default, as one line. */
static void help_line(const struct opt *o, char *buf, size_t size)
{
    if (o->dflt)
        snprintf(buf, size, "%s (default: %s)", o->help ? o->help : "", o->dflt);
    else
        snprintf(buf, size, "%s", o->help ? o->help : "");
}

/* Writes text word-wrapped to width, each line after the first starting
 * with prefix (the first starts where the caller left off, at column col). */
static void wrap(FILE *out, const char *text, size_t col, size_t width, const char *prefix)
{
    size_t start_col = strlen(prefix);
    while (*text) {
        size_t word = strcspn(text, " ");
        if (col > start_col && col + 1 + word > width) {
            fprintf(out, "\n%s", prefix);
            col = start_col;
        } else if (col > start_col) {
            fputc(' ', out);
            col++;
        }
        fwrite(text, 1, word, out);
        col += word;
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

void opts_usage(FILE *out, const struct opt *opts)
{
    char head[128], help[1024], pad[USAGE_HELP_COL + 1];
    memset(pad, ' ', USAGE_HELP_COL);
    pad[USAGE_HELP_COL] = '\0';
    for (const struct opt *o = opts; o->name; o++) {
        if (o->heading) {
            fprintf(out, "%s:\n", o->heading);
            continue;
        }
        int n = snprintf(head, sizeof head, "  --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        help_line(o, help, sizeof help);
        fputs(head, out);
        if (n + 1 >= USAGE_HELP_COL) { /* too long to share its line */
            fprintf(out, "\n%s", pad);
        } else {
            fprintf(out, "%.*s", USAGE_HELP_COL - n, pad);
        }
        wrap(out, help, USAGE_HELP_COL, USAGE_WIDTH, pad);
    }
}

/* One given value on a "key = value" line. */
static void config_value(FILE *out, const char *key, json_t *v)
{
    if (json_is_true(v))
        fprintf(out, "%s = true\n", key);
    else if (json_is_string(v))
        fprintf(out, "%s = %s\n", key, json_string_value(v));
}

void opts_config(FILE *out, const struct opt *opts, json_t *given)
{
    char help[1024];
    fputs("# parapet serve's configuration (parapet-serve(8)): \"key = value\" lines, one option each,\n"
          "# named as on the command line without the leading \"--\"; a flag takes true or false, and\n"
          "# a repeatable option one line per value. Options given on the command line win.\n",
          out);
    for (const struct opt *o = opts; o->name; o++) {
        if (o->heading) {
            fprintf(out, "\n## %s\n", o->heading);
            continue;
        }
        if (o->cli_only)
            continue;
        help_line(o, help, sizeof help);
        fputs("\n# ", out);
        wrap(out, help, 2, CONFIG_WIDTH, "# ");
        json_t *v = json_object_get(given, o->name);
        if (json_is_array(v)) {
            size_t i;
            json_t *e;
            json_array_foreach (v, i, e)
                config_value(out, o->name, e);
        } else if (v) {
            config_value(out, o->name, v);
        } else {
            fprintf(out, "#%s =%s\n", o->name, o->flag ? " false" : "");
        }
    }
}

void roff_text(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        if ((*p == '.' || *p == '\'') && (p == text || p[-1] == '\n'))
            fputs("\\&", out);
        if (*p == '\\')
            fputs("\\e", out);
        else if (*p == '-')
            fputs("\\-", out);
        else
            fputc(*p, out);
    }
}

void opts_man(FILE *out, const struct opt *opts)
{
    char help[1024];
    for (const struct opt *o = opts; o->name; o++) {
        if (o->heading) {
            fputs(".SS ", out);
            roff_text(out, o->heading);
            fputc('\n', out);
            continue;
        }
        fputs(".TP\n\\fB", out);
        roff_text(out, "--");
        roff_text(out, o->name);
        fputs("\\fR", out);
        if (o->arg) {
            fputs(" \\fI", out);
            roff_text(out, o->arg);
            fputs("\\fR", out);
        }
        fputc('\n', out);
        help_line(o, help, sizeof help);
        roff_text(out, help);
        if (o->cli_only)
            fputs(" (command line only)", out);
        else if (o->repeatable)
            fputs(" (configuration file: one line per value)", out);
        fputc('\n', out);
    }
}
