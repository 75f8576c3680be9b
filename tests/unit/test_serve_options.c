/* test_serve_options.c — serve's one option table (cli/serve_options.c)
 * against what is made of it: `--help`, the configuration file template
 * (`--print-config`) and parapet-serve(8) name every option once, the
 * template parses back into every key, the command line accepts every
 * option, and the configuration file refuses what it must
 * (cli/config_file.h). */
#include <stdlib.h>
#include <string.h>

#include "cli/config_file.h"
#include "cli/options_doc.h"
#include "cli/serve_options.h"
#include "unit/unit.h"

/* What writer makes of the table, as text (free it). */
static char *made(void (*writer)(FILE *, const struct opt *, json_t *))
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    writer(f, serve_options, NULL);
    fclose(f);
    return text;
}

static void usage_w(FILE *f, const struct opt *o, json_t *g)
{
    (void)g;
    opts_usage(f, o);
}
static void man_w(FILE *f, const struct opt *o, json_t *g)
{
    (void)g;
    opts_man(f, o);
}
static void config_w(FILE *f, const struct opt *o, json_t *g)
{
    opts_config(f, o, g);
}

/* Occurrences of before+name followed by one of the characters of after. */
static int count(const char *text, const char *before, const char *name, const char *after)
{
    char needle[200];
    snprintf(needle, sizeof needle, "%s%s", before, name);
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p++)
        if (p[strlen(needle)] && strchr(after, p[strlen(needle)]))
            n++;
    return n;
}

/* An option name as roff writes it ("-" as "\-"). */
static void roff_name(const char *name, char *out, size_t size)
{
    size_t k = 0;
    for (const char *p = name; *p && k + 3 < size; p++) {
        if (*p == '-')
            out[k++] = '\\';
        out[k++] = *p;
    }
    out[k] = '\0';
}

TEST(every_option_named_once_everywhere)
{
    char *usage = made(usage_w), *man = made(man_w), *conf = made(config_w);
    int options = 0;
    for (const struct opt *o = serve_options; o->name; o++) {
        char rname[200];
        if (o->heading) {
            roff_name(o->heading, rname, sizeof rname);
            CHECK(strstr(usage, o->heading) && strstr(man, rname) && strstr(conf, o->heading));
            continue;
        }
        options++;
        CHECK(o->help && *o->help);
        CHECK(o->flag == !o->arg); /* a value has a placeholder, a flag none */
        int in_usage = count(usage, "  --", o->name, " \n");
        roff_name(o->name, rname, sizeof rname);
        strcat(rname, "\\fR");
        int in_man = count(man, "\\fB\\-\\-", rname, " \n");
        int in_conf = count(conf, "\n#", o->name, " ");
        if (in_usage != 1 || in_man != 1 || in_conf != !o->cli_only)
            fprintf(stderr, "  --%s: %d in --help, %d in the man page, %d in the template\n", o->name, in_usage,
                    in_man, in_conf);
        CHECK_INT(in_usage, 1);
        CHECK_INT(in_man, 1);
        CHECK_INT(in_conf, !o->cli_only);
        for (const struct opt *p = o + 1; p->name; p++)
            CHECK(strcmp(p->name, o->name) != 0 || !*o->name);
    }
    CHECK(options > 80);
    free(usage);
    free(man);
    free(conf);
}

/* The template with every key set ("key = x", flags "true") parses into
 * every key; the command line takes each option too. */
TEST(template_parses_back)
{
    char *conf = made(config_w), *set = malloc(strlen(conf) * 2 + 1), *w = set;
    for (const char *line = conf; *line;) {
        size_t n = strcspn(line, "\n");
        if (line[0] == '#' && line[1] != ' ' && line[1] != '#' && n > 1) {
            int k = (int)strcspn(line + 1, " ");
            bool flag = strstr(line, "= false") != NULL && (size_t)(strstr(line, "= false") - line) < n;
            w += sprintf(w, "%.*s = %s\n", k, line + 1, flag ? "true" : "x");
        } else {
            memcpy(w, line, n);
            w += n;
            *w++ = '\n';
        }
        line += n + (line[n] == '\n');
    }
    *w = '\0';
    FILE *in = fmemopen(set, strlen(set), "r");
    json_t *got = config_file_parse(in, "template", serve_options);
    fclose(in);
    CHECK(got != NULL);
    char *argv[4];
    for (const struct opt *o = serve_options; got && o->name; o++) {
        if (!o->name[0])
            continue;
        json_t *v = json_object_get(got, o->name);
        CHECK(o->cli_only ? v == NULL : v != NULL);
        char flag[128];
        snprintf(flag, sizeof flag, "--%s", o->name);
        argv[0] = flag;
        argv[1] = "x";
        json_t *a = args_parse(o->flag ? 1 : 2, argv, serve_options);
        CHECK(a && json_object_get(a, o->name));
        json_decref(a);
    }
    json_decref(got);
    free(set);
    free(conf);
}

static json_t *parse(const char *text)
{
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    json_t *got = config_file_parse(in, "test.conf", serve_options);
    fclose(in);
    return got;
}

TEST(file_refuses)
{
    static const char *const bad[] = {
        "data = /x\nlisten-address = 1.2.3.4:1\n", /* unknown key */
        "help = true\n",                            /* command line only */
        "config = /etc/other.conf\n",               /* command line only */
        "data = /x\ndata = /y\n",                   /* a single option twice */
        "plain-http = maybe\n",                     /* a flag takes true/false */
        "data =\n",                                 /* no value */
        "just words\n",                             /* no '=' */
        "--data = /x\n",                            /* keys have no dashes before them */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *got = parse(bad[i]);
        if (got)
            fprintf(stderr, "  accepted: %s", bad[i]);
        CHECK(got == NULL);
        json_decref(got);
    }
}

TEST(file_values_and_command_line_wins)
{
    json_t *file = parse("# comment\n\n  data =  /var/lib/parapet  \nplain-http = no\ndev = YES\n"
                         "trusted-proxy = 10.0.0.0/8\ntrusted-proxy = 127.0.0.1\ntls-priority = NORMAL:-VERS-ALL:+VERS-TLS1.3\n"
                         "threads = 4\n");
    CHECK(file != NULL);
    if (!file)
        return;
    CHECK_STR(json_string_value(json_object_get(file, "data")), "/var/lib/parapet");
    CHECK(json_object_get(file, "plain-http") == NULL); /* false: as if absent */
    CHECK(json_is_true(json_object_get(file, "dev")));
    CHECK_INT(json_array_size(json_object_get(file, "trusted-proxy")), 2);
    CHECK_STR(json_string_value(json_object_get(file, "tls-priority")), "NORMAL:-VERS-ALL:+VERS-TLS1.3");
    char *argv[] = {"--threads", "8", "--trusted-proxy", "192.0.2.1", "--no-console"};
    json_t *a = args_parse(5, argv, serve_options);
    config_merge(a, file);
    CHECK_STR(json_string_value(json_object_get(a, "threads")), "8");
    CHECK_STR(json_string_value(json_object_get(a, "data")), "/var/lib/parapet");
    json_t *proxies = json_object_get(a, "trusted-proxy");
    CHECK_INT(json_array_size(proxies), 1);
    CHECK_STR(json_string_value(json_array_get(proxies, 0)), "192.0.2.1");
    CHECK(json_is_true(json_object_get(a, "no-console")) && json_is_true(json_object_get(a, "dev")));
    json_decref(a);
    json_decref(file);
}

/* --print-config of given options gives them back as the file's lines. */
TEST(print_config_round_trip)
{
    char *argv[] = {"--data", "/srv/p", "--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "::1", "--plain-http"};
    json_t *a = args_parse(7, argv, serve_options);
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    opts_config(f, serve_options, a);
    fclose(f);
    json_t *back = parse(text);
    CHECK(back && json_equal(a, back));
    json_decref(back);
    json_decref(a);
    free(text);
}

UNIT_MAIN(UNIT_CASE(every_option_named_once_everywhere), UNIT_CASE(template_parses_back), UNIT_CASE(file_refuses),
          UNIT_CASE(file_values_and_command_line_wins), UNIT_CASE(print_config_round_trip))
