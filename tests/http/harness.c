/* harness.c — see harness.h. */
#include "http/harness.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <curl/curl.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int checks_failed_in_case;
bool checks_quiet;
int checks_failed_quietly;

void check_fail(const char *where, const char *fmt, ...)
{
    if (checks_quiet) { /* an attempt that may be retried */
        checks_failed_quietly++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "    %s: ", where);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    checks_failed_in_case++;
}

/* ---- variables ---- */

enum { MAX_VARS = 512 };
static struct {
    char *name, *value;
} vars[MAX_VARS];
static int nvars;

void var_set(const char *name, const char *value)
{
    for (int i = 0; i < nvars; i++) {
        if (strcmp(vars[i].name, name) == 0) {
            free(vars[i].value);
            vars[i].value = strdup(value);
            return;
        }
    }
    if (nvars == MAX_VARS) {
        fprintf(stderr, "too many variables\n");
        exit(2);
    }
    vars[nvars].name = strdup(name);
    vars[nvars].value = strdup(value);
    nvars++;
}

const char *var_get(const char *name)
{
    for (int i = 0; i < nvars; i++)
        if (strcmp(vars[i].name, name) == 0)
            return vars[i].value;
    return NULL;
}

char *var_expand(const char *text, char *err, size_t errsize)
{
    size_t cap = strlen(text) * 2 + 256, n = 0;
    char *out = malloc(cap);
    for (const char *p = text; *p;) {
        if (*p == '$' && (p[1] == '{' || isalpha((unsigned char)p[1]) || p[1] == '_')) {
            char name[128];
            size_t len = 0;
            const char *q = p + 1;
            bool braced = *q == '{';
            if (braced)
                q++;
            while ((isalnum((unsigned char)*q) || *q == '_') && len < sizeof name - 1)
                name[len++] = *q++;
            name[len] = '\0';
            char clock[32];
            const char *v = NULL;
            if (braced && (strcmp(name, "NOW") == 0 || strcmp(name, "NOWMIN") == 0)) {
                /* ${NOW}, ${NOW-300}, ${NOWMIN+60}: the time when the step is
                 * expanded (NOWMIN: the minute's start), in seconds */
                long long t = (long long)time(NULL), delta = 0;
                if (strcmp(name, "NOWMIN") == 0)
                    t -= t % 60;
                if (*q == '+' || *q == '-') {
                    char *end;
                    delta = strtoll(q, &end, 10);
                    q = end;
                }
                snprintf(clock, sizeof clock, "%lld", t + delta);
                v = clock;
            }
            if (braced) {
                if (*q != '}') {
                    snprintf(err, errsize, "unclosed ${ in '%s'", text);
                    free(out);
                    return NULL;
                }
                q++;
            }
            if (!v)
                v = var_get(name);
            if (!v) {
                snprintf(err, errsize, "unknown variable $%s", name);
                free(out);
                return NULL;
            }
            size_t vl = strlen(v);
            if (n + vl + 1 > cap)
                out = realloc(out, cap = (n + vl + 1) * 2);
            memcpy(out + n, v, vl);
            n += vl;
            p = q;
        } else {
            if (n + 2 > cap)
                out = realloc(out, cap *= 2);
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
    return out;
}

/* ---- HTTP ---- */

static CURL *curl;

struct buf {
    char *data;
    size_t len;
};

static size_t on_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
    struct buf *b = ud;
    size_t n = size * nmemb;
    b->data = realloc(b->data, b->len + n + 1);
    memcpy(b->data + b->len, ptr, n);
    b->len += n;
    b->data[b->len] = '\0';
    return n;
}

static void header_value(const char *line, size_t n, const char *name, char *out, size_t size)
{
    size_t nl = strlen(name);
    if (n > nl + 1 && strncasecmp(line, name, nl) == 0 && line[nl] == ':') {
        const char *v = line + nl + 1;
        while (*v == ' ')
            v++;
        size_t vl = n - (size_t)(v - line);
        while (vl && (v[vl - 1] == '\r' || v[vl - 1] == '\n'))
            vl--;
        if (vl >= size)
            vl = size - 1;
        memcpy(out, v, vl);
        out[vl] = '\0';
    }
}

static size_t on_header(char *line, size_t size, size_t nmemb, void *ud)
{
    struct http_response *rs = ud;
    size_t n = size * nmemb;
    header_value(line, n, "Location", rs->location, sizeof rs->location);
    header_value(line, n, "Allow", rs->allow, sizeof rs->allow);
    header_value(line, n, "Content-Type", rs->content_type, sizeof rs->content_type);
    header_value(line, n, "Connection", rs->connection, sizeof rs->connection);
    header_value(line, n, "Cache-Control", rs->cache_control, sizeof rs->cache_control);
    return n;
}

void http_reset_connection(void)
{
    if (curl)
        curl_easy_cleanup(curl);
    curl = NULL;
}

int http_do(const struct http_request *rq, struct http_response *rs)
{
    memset(rs, 0, sizeof *rs);
    if (!curl)
        curl = curl_easy_init();
    else
        curl_easy_reset(curl);
    struct buf body = {0};
    struct curl_slist *hdrs = NULL;
    curl_mime *mime = NULL;
    for (int i = 0; i < rq->nheaders; i++)
        hdrs = curl_slist_append(hdrs, rq->headers[i]);
    hdrs = curl_slist_append(hdrs, "Expect:"); /* no 100-continue round trip */
    curl_easy_setopt(curl, CURLOPT_URL, rq->url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, rq->method);
    if (strcmp(rq->method, "HEAD") == 0)
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, rs);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
    if (rq->ca_file) {
        curl_easy_setopt(curl, CURLOPT_CAINFO, rq->ca_file);
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
    }
    if (rq->nparts > 0) {
        mime = curl_mime_init(curl);
        for (int i = 0; i < rq->nparts; i++) {
            curl_mimepart *part = curl_mime_addpart(mime);
            curl_mime_name(part, rq->parts[i].name);
            curl_mime_data(part, rq->parts[i].value, rq->parts[i].value_len);
            if (rq->parts[i].filename)
                curl_mime_filename(part, rq->parts[i].filename);
            if (rq->parts[i].content_type)
                curl_mime_type(part, rq->parts[i].content_type);
        }
        curl_easy_setopt(curl, CURLOPT_MIMEPOST, mime);
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, rq->method);
    } else if (rq->body) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, rq->body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)rq->body_len);
    }
    CURLcode rc = curl_easy_perform(curl);
    if (rc != CURLE_OK)
        snprintf(rs->error, sizeof rs->error, "%s", curl_easy_strerror(rc));
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &rs->status);
    curl_easy_getinfo(curl, CURLINFO_NUM_CONNECTS, &rs->connects);
    rs->body = body.data ? body.data : strdup("");
    rs->body_len = body.len;
    curl_slist_free_all(hdrs);
    curl_mime_free(mime);
    return rc == CURLE_OK ? 0 : -1;
}

void http_response_free(struct http_response *rs)
{
    free(rs->body);
    rs->body = NULL;
}

/* ---- JSON paths ---- */

json_t *json_path(json_t *root, const char *path)
{
    json_t *cur = root;
    const char *p = path;
    if (*p == '.' && (p[1] == '\0'))
        return root;
    while (*p && cur) {
        if (*p == '.') {
            p++;
            char key[128];
            size_t n = strcspn(p, ".[");
            if (n >= sizeof key)
                return NULL;
            memcpy(key, p, n);
            key[n] = '\0';
            cur = json_object_get(cur, key);
            p += n;
        } else if (*p == '[') {
            char *end;
            long i = strtol(p + 1, &end, 10);
            if (*end != ']')
                return NULL;
            cur = json_array_get(cur, (size_t)i);
            p = end + 1;
        } else {
            return NULL;
        }
    }
    return cur;
}

/* ---- processes ---- */

json_t *admin(const char *bin, const char *data, const char *fmt, ...)
{
    char args[2048], cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s admin --data '%s' %s", bin, data, args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    char out[65536];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    if (status != 0) {
        fprintf(stderr, "setup: '%s' failed (status %d)\n", cmd, status);
        return NULL;
    }
    return json_loads(out, 0, NULL);
}

int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    bind(fd, (struct sockaddr *)&a, sizeof a);
    getsockname(fd, (struct sockaddr *)&a, &len);
    close(fd);
    return ntohs(a.sin_port);
}

static bool port_open(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {
        .sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    bool ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    return ok;
}

pid_t process_start(const char *cmd, int port, const char *log)
{
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* no orphan servers if the runner dies (e.g. SIGPIPE) */
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 600; i++) { /* up to 60 s: ASan builds start slowly */
        if (port_open(port))
            return pid;
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid) {
            fprintf(stderr, "setup: '%.200s' exited at start (see %s)\n", cmd, log);
            return -1;
        }
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    return -1;
}

pid_t server_start(const char *bin, const char *data, int port, const char *extra, const char *log)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "exec %s serve --data '%s' --listen 127.0.0.1:%d %s 2>>'%s' >>'%s'", bin, data,
             port, extra ? extra : "", log, log);
    return process_start(cmd, port, log);
}

int server_stop(pid_t pid)
{
    int st;
    kill(pid, SIGTERM);
    for (int i = 0; i < 300; i++) {
        if (waitpid(pid, &st, WNOHANG) == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    /* hung: where each thread waits, for the report (gdb when installed) */
    char cmd[200];
    snprintf(cmd, sizeof cmd,
             "command -v gdb >/dev/null && gdb -p %d -batch -ex 'thread apply all bt 12' 2>/dev/null | "
             "grep -E '^(Thread|#)' | sed 's/^/    hung: /' >&2",
             (int)pid);
    if (system(cmd) != 0)
        fprintf(stderr, "    hung: no backtrace (gdb)\n");
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    return -1;
}

bool file_says(const char *path, long from, const char *text, int secs)
{
    for (int i = 0; i <= secs * 10; i++) {
        FILE *f = fopen(path, "r");
        bool found = false;
        char line[2048];
        if (f && fseek(f, from, SEEK_SET) == 0)
            while (!found && fgets(line, sizeof line, f))
                found = strstr(line, text) != NULL;
        if (f)
            fclose(f);
        if (found)
            return true;
        nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
    }
    return false;
}

long file_size(const char *path)
{
    FILE *f = fopen(path, "r");
    long n = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : 0;
    if (f)
        fclose(f);
    return n;
}
