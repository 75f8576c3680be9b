/* test_tcp_push.c — server/tcp_push.h on a real TCP socket: a socket not
 * set up as a connection is left alone; set up, it has TCP_NODELAY, its
 * cork requests and repeated TCP_NODELAY=1 are answered without the
 * kernel, and a TCP_NODELAY=0 goes through (so the next =1 does too); once
 * ended, it is left alone again. */
#include "server/tcp_push.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include "unit.h"

static bool skip(int fd, int name, int v)
{
    return tcp_push_skip(fd, IPPROTO_TCP, name, &v, sizeof v);
}

static int nodelay(int fd)
{
    int v = -1;
    socklen_t len = sizeof v;
    return getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &v, &len) == 0 ? v : -1;
}

TEST(only_set_up_connections_skip)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(fd >= 0);
    CHECK(!skip(fd, TCP_CORK, 1));
    CHECK(!skip(fd, TCP_NODELAY, 1));
    CHECK_INT(nodelay(fd), 0);

    tcp_push_attach(fd);
    CHECK(nodelay(fd) != 0);
    CHECK(skip(fd, TCP_CORK, 1));
    CHECK(skip(fd, TCP_CORK, 0));
    CHECK(skip(fd, TCP_NODELAY, 1));
    int keepalive = 1;
    CHECK(!tcp_push_skip(fd, SOL_SOCKET, SO_KEEPALIVE, &keepalive, sizeof keepalive)); /* other options pass */

    CHECK(!skip(fd, TCP_NODELAY, 0)); /* off goes to the kernel */
    CHECK(!skip(fd, TCP_NODELAY, 1)); /* and on again too */
    CHECK(skip(fd, TCP_NODELAY, 1));

    tcp_push_detach(fd);
    CHECK(!skip(fd, TCP_CORK, 1));
    CHECK(!skip(fd, TCP_NODELAY, 1));
    CHECK(!skip(-1, TCP_CORK, 1));
    close(fd);
}

UNIT_MAIN(UNIT_CASE(only_set_up_connections_skip))
