/* cases.c — see cases.h. */
#include "http/cases.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "http/background.h"
#include "http/harness.h"

struct step {
    struct http_request rq;
    char *owned[64]; /* strings to free */
    int nowned;
    char *body;
    size_t body_len;
    char *expects[64];
    int nexpects;
    int sleep_s;
    int attempts;  /* retry: N — tries until every expectation holds */
    char *command; /* run: a shell command instead of a request */
    char *start;   /* start: a background process for the rest of the case */
};

static char *keep(struct step *s, char *p)
{
    if (s->nowned < 64)
        s->owned[s->nowned++] = p;
    return p;
}

static void step_free(struct step *s)
{
    for (int i = 0; i < s->nowned; i++)
        free(s->owned[i]);
    free(s->body);
    memset(s, 0, sizeof *s);
}

static void append_body(struct step *s, const char *text, const char *sep)
{
    size_t tl = strlen(text), sl = s->body ? strlen(sep) : 0;
    s->body = realloc(s->body, s->body_len + sl + tl + 1);
    memcpy(s->body + s->body_len, sep, sl);
    memcpy(s->body + s->body_len + sl, text, tl);
    s->body_len += sl + tl;
    s->body[s->body_len] = '\0';
}

static char *unescape_newlines(const char *in)
{
    char *out = malloc(strlen(in) + 1), *o = out;
    for (const char *p = in; *p; p++) {
        if (p[0] == '\\' && p[1] == 'n') {
            *o++ = '\n';
            p++;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}

/* The envelope rules every JSON reply must follow. */
static void check_envelope(const char *where, const struct http_response *rs, json_t *doc)
{
    if (rs->status == 302 || rs->status == 0)
        return;
    if (!strstr(rs->content_type, "application/json")) {
        check_fail(where, "Content-Type is '%s', want application/json", rs->content_type);
        return;
    }
    if (!json_is_object(doc)) {
        check_fail(where, "the body is not a JSON object: %.200s", rs->body);
        return;
    }
    json_t *code = json_object_get(doc, "code"), *msg = json_object_get(doc, "msg");
    if (!json_is_integer(code) || !json_is_string(msg)) {
        check_fail(where, "envelope without integer code and string msg: %.200s", rs->body);
        return;
    }
    long long c = json_integer_value(code);
    bool ok = rs->status >= 200 && rs->status < 300;
    if (ok != (c == 0))
        check_fail(where, "HTTP %ld with envelope code %lld", rs->status, c);
    if (c != 0 && (c < 10000000 || c > 99999999 || c / 100000 != rs->status))
        check_fail(where, "code %lld is not 8 digits starting with the status %ld", c, rs->status);
    if (c != 0 && json_object_get(doc, "result"))
        check_fail(where, "a failure carries a result");
}

static const char *header_of(const struct http_response *rs, const char *name)
{
    if (!strcasecmp(name, "Location"))
        return rs->location;
    if (!strcasecmp(name, "Allow"))
        return rs->allow;
    if (!strcasecmp(name, "Content-Type"))
        return rs->content_type;
    if (!strcasecmp(name, "Connection"))
        return rs->connection;
    if (!strcasecmp(name, "Cache-Control"))
        return rs->cache_control;
    return NULL;
}

/* A JSON value as text for comparisons and saving: strings bare. */
static char *value_text(json_t *v)
{
    if (json_is_string(v))
        return strdup(json_string_value(v));
    return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
}

static bool regex_match(const char *pattern, const char *text)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
        return false;
    bool m = regexec(&re, text, 0, NULL, 0) == 0;
    regfree(&re);
    return m;
}

/* `have` holds what `want` says: an object every member of want (recursively;
 * have may hold more members, e.g. a deploy state that changes on its own),
 * an array of as many items each holding want's, any other value equal. */
static bool json_has(const json_t *want, const json_t *have)
{
    if (json_is_object(want)) {
        const char *key;
        json_t *w;
        if (!json_is_object(have))
            return false;
        json_object_foreach ((json_t *)want, key, w)
            if (!json_has(w, json_object_get(have, key)))
                return false;
        return true;
    }
    if (json_is_array(want)) {
        if (!json_is_array(have) || json_array_size(have) != json_array_size(want))
            return false;
        for (size_t i = 0; i < json_array_size(want); i++)
            if (!json_has(json_array_get(want, i), json_array_get(have, i)))
                return false;
        return true;
    }
    return have && json_equal(want, have);
}

static void check_value(const char *where, const char *what, json_t *v, const char *op, const char *arg)
{
    char *text = v ? value_text(v) : NULL;
    if (!strcmp(op, "exists")) {
        if (!v)
            check_fail(where, "%s is absent", what);
    } else if (!strcmp(op, "absent")) {
        if (v)
            check_fail(where, "%s is present: %s", what, text);
    } else if (!v) {
        check_fail(where, "%s is absent (want %s %s)", what, op, arg);
    } else if (!strcmp(op, "==") || !strcmp(op, "!=")) {
        json_t *want = json_loads(arg, JSON_DECODE_ANY, NULL);
        bool eq = want ? json_equal(want, v) : (json_is_string(v) && !strcmp(json_string_value(v), arg));
        if (eq != !strcmp(op, "=="))
            check_fail(where, "%s is %s, want %s %s", what, text, op, arg);
        json_decref(want);
    } else if (!strcmp(op, "has")) {
        json_t *want = json_loads(arg, JSON_DECODE_ANY, NULL);
        if (!want || !json_has(want, v))
            check_fail(where, "%s is %s, want it to have %s", what, text, arg);
        json_decref(want);
    } else if (!strcmp(op, "~")) {
        if (!strstr(text, arg))
            check_fail(where, "%s is '%s', want it to contain '%s'", what, text, arg);
    } else if (!strcmp(op, "matches")) {
        if (!regex_match(arg, text))
            check_fail(where, "%s is '%s', want it to match /%s/", what, text, arg);
    } else if (!strcmp(op, "length")) {
        size_t n = json_is_array(v)    ? json_array_size(v)
                   : json_is_object(v) ? json_object_size(v)
                                       : (size_t)-1;
        if (n != (size_t)atol(arg))
            check_fail(where, "%s has %zd items, want %s", what, (ssize_t)n, arg);
    } else if (!strcmp(op, "type")) {
        static const char *const names[] = {"object", "array",   "string",  "integer",
                                            "real",   "boolean", "boolean", "null"};
        if (strcmp(names[json_typeof(v)], arg) != 0)
            check_fail(where, "%s is a %s, want %s", what, names[json_typeof(v)], arg);
    } else {
        check_fail(where, "unknown check '%s'", op);
    }
    free(text);
}

static void header_check(const char *where, const struct http_response *rs, const char *line)
{
    char name[64], op[16];
    int off = 0;
    if (sscanf(line, "%63s %15s %n", name, op, &off) < 2) {
        check_fail(where, "bad header check '%s'", line);
        return;
    }
    const char *have = header_of(rs, name), *arg = line + off;
    if (!have)
        check_fail(where, "header %s is not captured", name);
    else if (!strcmp(op, "~") && !strstr(have, arg))
        check_fail(where, "%s is '%s', want it to contain '%s'", name, have, arg);
    else if (!strcmp(op, "==") && strcmp(have, arg) != 0)
        check_fail(where, "%s is '%s', want '%s'", name, have, arg);
    else if (!strcmp(op, "absent") && *have)
        check_fail(where, "%s is '%s', want none", name, have);
}

/* "save NAME location-param code" or "save NAME .path" */
static void save(const char *where, const struct http_response *rs, json_t *doc, const char *line)
{
    char name[64], src[128], param[64];
    if (sscanf(line, "%63s %127s %63s", name, src, param) >= 2 && !strcmp(src, "location-param")) {
        char key[80];
        snprintf(key, sizeof key, "%s=", param);
        const char *p = rs->location;
        while ((p = strstr(p, key)) && p != rs->location && p[-1] != '?' && p[-1] != '&')
            p++;
        if (!p) {
            check_fail(where, "Location '%s' has no %s", rs->location, param);
            return;
        }
        p += strlen(key);
        size_t n = strcspn(p, "&#");
        char *v = strndup(p, n);
        var_set(name, v);
        free(v);
        return;
    }
    json_t *v = json_path(doc, src);
    if (!v) {
        check_fail(where, "cannot save %s: %s is absent", name, src);
        return;
    }
    char *text = value_text(v);
    var_set(name, text);
    free(text);
}

/* Output checks of a run: step: "~ text", "!~ text", "matches RE". */
static void output_check(const char *where, const char *out, const char *line)
{
    if (!strncmp(line, "~ ", 2)) {
        if (!strstr(out, line + 2))
            check_fail(where, "output does not contain '%s': %.500s", line + 2, out);
    } else if (!strncmp(line, "!~ ", 3)) {
        if (strstr(out, line + 3))
            check_fail(where, "output contains '%s': %.500s", line + 3, out);
    } else if (!strncmp(line, "matches ", 8)) {
        if (!regex_match(line + 8, out))
            check_fail(where, "output does not match /%s/: %.500s", line + 8, out);
    } else {
        check_fail(where, "bad output check '%s'", line);
    }
}

/* A run: step: the command's exit status and its stdout+stderr. */
static void run_command_step(const char *where, struct step *s)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "(%s) 2>&1", s->command);
    FILE *p = popen(cmd, "r");
    char out[65536];
    size_t len = p ? fread(out, 1, sizeof out - 1, p) : 0;
    out[len] = '\0';
    int st = p ? pclose(p) : -1;
    int code = st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    bool exit_checked = false;
    for (int i = 0; i < s->nexpects; i++) {
        char *e = s->expects[i];
        if (!strncmp(e, "expect exit ", 12)) {
            exit_checked = true;
            if (code != atoi(e + 12))
                check_fail(where, "exit status %d, want %s; output %.500s", code, e + 12, out);
        } else if (!strncmp(e, "expect output ", 14)) {
            output_check(where, out, e + 14);
        } else if (!strncmp(e, "save ", 5) && strstr(e, " output") && strlen(e) > 12) {
            /* "save NAME output": the output's first line */
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(e + 5, " "), e + 5);
            out[strcspn(out, "\r\n")] = '\0';
            var_set(name, out);
        } else {
            check_fail(where, "a run: step takes only 'expect exit', 'expect output' and 'save NAME output' lines: %s",
                       e);
        }
    }
    if (!exit_checked)
        check_fail(where, "the step has no 'expect exit'");
}

static void run_request_step(const char *where, struct step *s, const char *ca_file)
{
    s->rq.body = s->body;
    s->rq.body_len = s->body_len;
    s->rq.ca_file = ca_file;
    struct http_response rs;
    http_do(&s->rq, &rs);
    json_t *doc = json_loadb(rs.body, rs.body_len, 0, NULL);
    bool status_checked = false;
    if (rs.error[0]) {
        check_fail(where, "transport error: %s", rs.error);
    } else {
        bool raw = false; /* "expect raw JSON": a document served as it is (openapi.json) */
        for (int i = 0; i < s->nexpects; i++)
            raw |= strcmp(s->expects[i], "expect raw JSON") == 0;
        if (!raw)
            check_envelope(where, &rs, doc);
        else if (!json_is_object(doc))
            check_fail(where, "the body is not a JSON object: %.200s", rs.body);
    }
    for (int i = 0; i < s->nexpects && !rs.error[0]; i++) {
        char *e = s->expects[i];
        if (!strncmp(e, "expect status ", 14)) {
            status_checked = true;
            if (rs.status != atol(e + 14))
                check_fail(where, "status %ld, want %s; body %.300s", rs.status, e + 14, rs.body);
        } else if (!strncmp(e, "expect header ", 14)) {
            header_check(where, &rs, e + 14);
        } else if (!strncmp(e, "expect .", 8)) {
            char path[256], op[16];
            int off = 0;
            if (sscanf(e + 7, "%255s %15s %n", path, op, &off) < 2) {
                check_fail(where, "bad check '%s'", e);
                continue;
            }
            check_value(where, path, json_path(doc, path), op, e + 7 + off);
        } else if (!strncmp(e, "save ", 5)) {
            save(where, &rs, doc, e + 5);
        } else if (strcmp(e, "expect raw JSON") != 0) {
            check_fail(where, "unknown line '%s'", e);
        }
    }
    if (!status_checked)
        check_fail(where, "the step has no 'expect status'");
    json_decref(doc);
    http_response_free(&rs);
}

/* Runs a step; with retry: N, quietly up to N - 1 times until its
 * expectations hold (0.2 s apart), then once more for the record. */
static void run_step(const char *where, struct step *s, const char *ca_file)
{
    if (s->sleep_s)
        sleep((unsigned)s->sleep_s);
    for (int attempt = 1; attempt <= s->attempts || attempt == 1; attempt++) {
        bool last = attempt >= s->attempts;
        checks_quiet = !last;
        int before = checks_failed_quietly;
        if (s->command)
            run_command_step(where, s);
        else
            run_request_step(where, s, ca_file);
        checks_quiet = false;
        if (last || checks_failed_quietly == before)
            return;
        struct timespec pause = {0, 200 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

/* Parses one line of a step; returns -1 on a syntax error. */
static int parse_line(struct step *s, char *line, char *err, size_t errsize)
{
    static const char *const methods[] = {"GET ",   "POST ", "PUT ",     "DELETE ",
                                          "PATCH ", "HEAD ", "OPTIONS ", "TRACE "};
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        size_t n = strlen(methods[i]);
        if (!strncmp(line, methods[i], n)) {
            s->rq.method = keep(s, strndup(line, n - 1));
            s->rq.url = keep(s, strdup(line + n));
            return 0;
        }
    }
    if (!strncmp(line, "header: ", 8) && s->rq.nheaders < 16) {
        s->rq.headers[s->rq.nheaders++] = keep(s, strdup(line + 8));
    } else if (!strncmp(line, "form: ", 6)) {
        append_body(s, line + 6, "&");
    } else if (!strncmp(line, "json: ", 6)) {
        append_body(s, line + 6, "\n");
    } else if (!strncmp(line, "body: ", 6)) {
        append_body(s, line + 6, "\n");
    } else if ((!strncmp(line, "part: ", 6) || !strncmp(line, "file: ", 6)) && s->rq.nparts < 16) {
        struct http_part *p = &s->rq.parts[s->rq.nparts++];
        char *eq = strchr(line + 6, '=');
        if (!eq) {
            snprintf(err, errsize, "part without '=': %s", line);
            return -1;
        }
        p->name = keep(s, strndup(line + 6, (size_t)(eq - line - 6)));
        char *value = eq + 1;
        if (line[0] == 'f') { /* filename|content-type|text */
            char *bar1 = strchr(value, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
            if (!bar2) {
                snprintf(err, errsize, "file: name=filename|content-type|text");
                return -1;
            }
            p->filename = keep(s, strndup(value, (size_t)(bar1 - value)));
            p->content_type = bar2 > bar1 + 1 ? keep(s, strndup(bar1 + 1, (size_t)(bar2 - bar1 - 1))) : NULL;
            value = bar2 + 1;
        }
        p->value = keep(s, unescape_newlines(value));
        p->value_len = strlen(p->value);
    } else if (!strncmp(line, "sleep: ", 7)) {
        s->sleep_s = atoi(line + 7);
    } else if (!strncmp(line, "retry: ", 7)) {
        s->attempts = atoi(line + 7);
    } else if (!strncmp(line, "start: ", 7)) {
        s->start = keep(s, strdup(line + 7));
    } else if (!strncmp(line, "run: ", 5)) {
        s->command = keep(s, strdup(line + 5));
    } else if (!strncmp(line, "expect ", 7) || !strncmp(line, "save ", 5)) {
        if (s->nexpects < 64)
            s->expects[s->nexpects++] = keep(s, strdup(line));
    } else {
        snprintf(err, errsize, "unknown line: %s", line);
        return -1;
    }
    return 0;
}

/* Adds the Content-Type a form: or json: body implies, unless a header set one. */
static void default_content_type(struct step *s, bool form, bool json)
{
    for (int i = 0; i < s->rq.nheaders; i++)
        if (!strncasecmp(s->rq.headers[i], "Content-Type:", 13))
            return;
    if (s->rq.nheaders >= 16)
        return;
    if (form)
        s->rq.headers[s->rq.nheaders++] = "Content-Type: application/x-www-form-urlencoded";
    else if (json)
        s->rq.headers[s->rq.nheaders++] = "Content-Type: application/json";
}

int case_run(const char *path, const char *ca_file)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "    cannot open %s\n", path);
        return 1;
    }
    checks_failed_in_case = 0;
    if (case_tmp_create() != 0) {
        fclose(f);
        fprintf(stderr, "    cannot create a temporary directory\n");
        return 1;
    }
    struct step s = {0};
    bool form = false, json = false, any = false;
    char raw[8192], err[256];
    int lineno = 0, stepno = 1;
    for (;;) {
        char *got = fgets(raw, sizeof raw, f);
        lineno++;
        if (got)
            raw[strcspn(raw, "\r\n")] = '\0';
        if (!got || !strcmp(raw, "---")) {
            if (any) {
                char where[64];
                snprintf(where, sizeof where, "step %d", stepno);
                if (s.start) {
                    if (s.rq.method || s.command || s.nexpects)
                        check_fail(where, "a start: step takes nothing else");
                    else if (case_background_start(s.start) != 0)
                        check_fail(where, "could not start: %s", s.start);
                } else if (!s.rq.method && !s.command)
                    check_fail(where, "no request line");
                else {
                    default_content_type(&s, form, json);
                    run_step(where, &s, ca_file);
                }
            }
            step_free(&s);
            form = json = any = false;
            stepno++;
            if (!got)
                break;
            continue;
        }
        if (raw[0] == '#' || raw[0] == '\0')
            continue;
        char *line = var_expand(raw, err, sizeof err);
        if (!line || parse_line(&s, line, err, sizeof err) != 0) {
            check_fail(path, "line %d: %s", lineno, err);
            free(line);
            break;
        }
        form |= !strncmp(line, "form: ", 6);
        json |= !strncmp(line, "json: ", 6);
        any = true;
        free(line);
    }
    step_free(&s);
    fclose(f);
    case_end_cleanup();
    return checks_failed_in_case ? 1 : 0;
}
