/* listener.c — see listener.h. */
#include "server/listener.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct listener {
    int fd;
    struct MHD_Daemon *daemon;
    unsigned max_connections;
    pthread_t thread;
    bool started;
    atomic_bool stopping;
};

/* [::] takes IPv4 clients too (seen as ::ffff:a.b.c.d; http.c unmaps
 * them); any other IPv6 address only IPv6. */
static bool v6only(int fd, const struct in6_addr *a)
{
    int only = !IN6_IS_ADDR_UNSPECIFIED(a);
    return setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &only, sizeof only) == 0;
}

struct listener *listener_open(const char *host, int port)
{
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
    struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
    socklen_t len;
    if (inet_pton(AF_INET, host, &s4->sin_addr) == 1) {
        s4->sin_family = AF_INET;
        s4->sin_port = htons((uint16_t)port);
        len = sizeof *s4;
    } else if (inet_pton(AF_INET6, host, &s6->sin6_addr) == 1) {
        s6->sin6_family = AF_INET6;
        s6->sin6_port = htons((uint16_t)port);
        len = sizeof *s6;
    } else {
        fprintf(stderr, "parapet: --listen: '%s' is not an IP address\n", host);
        return NULL;
    }
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int on = 1;
    /* SO_REUSEADDR: a restart need not wait for old connections in
     * TIME_WAIT. Not SO_REUSEPORT: a second server started on a port in use
     * must fail, not silently take half of the connections. */
    bool ok = fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) == 0 &&
              (ss.ss_family != AF_INET6 || v6only(fd, &s6->sin6_addr)) &&
              bind(fd, (struct sockaddr *)&ss, len) == 0 && listen(fd, SOMAXCONN) == 0;
    if (!ok) {
        fprintf(stderr, "parapet: cannot listen on %s:%d: %s\n", host, port, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    struct listener *l = calloc(1, sizeof *l);
    l->fd = fd;
    return l;
}

static unsigned open_connections(struct MHD_Daemon *d)
{
    const union MHD_DaemonInfo *i = MHD_get_daemon_info(d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return i ? i->num_connections : 0;
}

static void *accept_loop(void *arg)
{
    struct listener *l = arg;
    struct timespec pause = {.tv_nsec = 10 * 1000 * 1000};
    while (!atomic_load(&l->stopping)) {
        if (open_connections(l->daemon) >= l->max_connections) {
            nanosleep(&pause, NULL); /* at the limit: the kernel queues new connections */
            continue;
        }
        struct sockaddr_storage ss;
        socklen_t len = sizeof ss;
        int fd = accept4(l->fd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
                nanosleep(&pause, NULL);
            else if (errno == EINVAL || errno == EBADF)
                break; /* shut down */
            continue;  /* EINTR, ECONNABORTED, a network error on the new connection */
        }
        MHD_add_connection(l->daemon, fd, (struct sockaddr *)&ss, len); /* closes fd if refused */
    }
    return NULL;
}

int listener_start(struct listener *l, struct MHD_Daemon *d, unsigned max_connections)
{
    l->daemon = d;
    l->max_connections = max_connections;
    if (pthread_create(&l->thread, NULL, accept_loop, l) != 0) {
        fprintf(stderr, "parapet: cannot start the accepting thread\n");
        return -1;
    }
    l->started = true;
    return 0;
}

void listener_quiesce(struct listener *l)
{
    atomic_store(&l->stopping, true);
    shutdown(l->fd, SHUT_RDWR); /* wakes accept(); new connections are refused */
}

void listener_close(struct listener *l)
{
    listener_quiesce(l);
    if (l->started)
        pthread_join(l->thread, NULL);
    close(l->fd);
    free(l);
}
