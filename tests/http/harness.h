/* harness.h — the pieces of the HTTPS test runner: variables, HTTP calls
 * through libcurl, JSON paths, and the servers under test. */
#ifndef PARAPET_TEST_HARNESS_H
#define PARAPET_TEST_HARNESS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* ---- variables ($NAME in case files) ---- */
void var_set(const char *name, const char *value);
const char *var_get(const char *name);
/* Expands $NAME and ${NAME}; unknown names are an error (NULL, message in err). */
char *var_expand(const char *text, char *err, size_t errsize);

/* ---- HTTP ---- */
struct http_part { /* a multipart part */
    const char *name, *value, *filename, *content_type;
    size_t value_len;
};

struct http_request {
    const char *method;
    const char *url;         /* absolute */
    const char *headers[16]; /* "Name: value" */
    int nheaders;
    const char *body; /* raw body, or NULL */
    size_t body_len;
    struct http_part parts[16]; /* multipart body when nparts > 0 */
    int nparts;
    const char *ca_file; /* certificate to trust */
};

struct http_response {
    long status;
    char *body;
    size_t body_len;
    char location[2048], allow[128], content_type[128], connection[64], cache_control[64];
    long connects;   /* new connections libcurl made for this request */
    char error[256]; /* transport failure, "" if none */
};

/* Performs a request on a shared handle (keep-alive across calls). */
int http_do(const struct http_request *rq, struct http_response *rs);
void http_response_free(struct http_response *rs);
void http_reset_connection(void);

/* ---- JSON paths: ".a.b[0].c"; "." is the root ---- */
json_t *json_path(json_t *root, const char *path);

/* ---- processes ---- */
/* Runs `parapet admin --data DIR args...` and returns its JSON output. */
json_t *admin(const char *bin, const char *data, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Runs a shell command in the background; waits until 127.0.0.1:port
 * accepts TCP connections. Returns its pid or -1. */
pid_t process_start(const char *cmd, int port, const char *log);
/* Starts `parapet serve` with extra args; waits until it accepts. */
pid_t server_start(const char *bin, const char *data, int port, const char *extra, const char *log);
/* Sends SIGTERM and waits; returns the exit status (or -1). */
int server_stop(pid_t pid);
int free_port(void);
/* Whether the file holds `text` after its first `from` bytes, waiting up to
 * secs for it to appear (a server's log line, say). */
bool file_says(const char *path, long from, const char *text, int secs);
/* The file's size in bytes (0 when it cannot be read). */
long file_size(const char *path);

/* ---- results ---- */
void check_fail(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
extern int checks_failed_in_case;
/* While checks_quiet is set, failures only count in checks_failed_quietly
 * (a step that will be tried again). */
extern bool checks_quiet;
extern int checks_failed_quietly;

#endif
