/* bird_ctl.c — see bird_ctl.h. */
#include "dataplane/bird/bird_ctl.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct reader {
    int fd, timeout_ms;
    char buf[4096];
    size_t len;
};

/* The next line (without its newline) into line; 0, or -1 (closed, timed out). */
static int read_line(struct reader *r, char *line, size_t size)
{
    for (;;) {
        char *nl = memchr(r->buf, '\n', r->len);
        if (nl) {
            size_t n = (size_t)(nl - r->buf);
            snprintf(line, size, "%.*s", (int)n, r->buf);
            memmove(r->buf, nl + 1, r->len - n - 1);
            r->len -= n + 1;
            return 0;
        }
        if (r->len == sizeof r->buf) /* a line longer than the buffer: cut it */
            r->len = 0;
        struct pollfd p = {.fd = r->fd, .events = POLLIN};
        if (poll(&p, 1, r->timeout_ms) != 1)
            return -1;
        ssize_t got = read(r->fd, r->buf + r->len, sizeof r->buf - r->len);
        if (got <= 0)
            return -1;
        r->len += (size_t)got;
    }
}

static bool coded(const char *line)
{
    return isdigit((unsigned char)line[0]) && isdigit((unsigned char)line[1]) &&
           isdigit((unsigned char)line[2]) && isdigit((unsigned char)line[3]) && (line[4] == ' ' || line[4] == '-');
}

/* Reads one reply; its final code, or -1. Texts are appended to out. */
static int read_reply(struct reader *r, char *out, size_t size)
{
    char line[1024];
    while (read_line(r, line, sizeof line) == 0) {
        const char *text = coded(line) ? line + 5 : line + (line[0] == ' ');
        size_t len = strlen(out);
        if (len + 1 < size)
            snprintf(out + len, size - len, "%s%s", len ? "\n" : "", text);
        if (coded(line) && line[4] == ' ')
            return (line[0] - '0') * 1000 + (line[1] - '0') * 100 + (line[2] - '0') * 10 + (line[3] - '0');
    }
    return -1;
}

int bird_ctl(const char *socket_path, const char *command, int timeout_ms, char *out, size_t out_len)
{
    out[0] = '\0';
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(socket_path) >= sizeof a.sun_path) {
        snprintf(out, out_len, "the control socket path is too long: %s", socket_path);
        return -1;
    }
    memcpy(a.sun_path, socket_path, strlen(socket_path) + 1);
    struct reader r = {.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), .timeout_ms = timeout_ms};
    if (r.fd < 0 || connect(r.fd, (struct sockaddr *)&a, sizeof a) != 0) {
        int err = errno;
        snprintf(out, out_len, "cannot reach BIRD at %s: %s", socket_path, strerror(err));
        if (r.fd >= 0)
            close(r.fd);
        return r.fd >= 0 && (err == ENOENT || err == ECONNREFUSED) ? -2 : -1;
    }
    char greeting[256] = "";
    int code = read_reply(&r, greeting, sizeof greeting);
    if (code == 1) { /* 0001 ready */
        char cmd[512];
        int n = snprintf(cmd, sizeof cmd, "%s\n", command);
        code = write(r.fd, cmd, (size_t)n) == n ? read_reply(&r, out, out_len) : -1;
    } else {
        code = -1;
    }
    if (code < 0 && !out[0])
        snprintf(out, out_len, "no answer from BIRD at %s", socket_path);
    close(r.fd);
    return code;
}
