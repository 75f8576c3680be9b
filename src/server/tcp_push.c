/* tcp_push.c — see tcp_push.h. One byte of state per descriptor number
 * below FDS_MAX; sockets above it are left to the kernel. */
#include "server/tcp_push.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdatomic.h>
#include <string.h>

enum { FDS_MAX = 65536 };
enum { GUARDED = 1, NODELAY_ON = 2 };

static _Atomic unsigned char state[FDS_MAX];

void tcp_push_attach(int fd)
{
    if (fd < 0 || fd >= FDS_MAX)
        return;
    int on = 1;
    /* state[fd] is still 0: the program's setsockopt lets this through */
    bool nodelay = setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) == 0;
    atomic_store(&state[fd], (unsigned char)(GUARDED | (nodelay ? NODELAY_ON : 0)));
}

void tcp_push_detach(int fd)
{
    if (fd >= 0 && fd < FDS_MAX)
        atomic_store(&state[fd], 0);
}

bool tcp_push_skip(int fd, int level, int name, const void *value, socklen_t len)
{
    if (fd < 0 || fd >= FDS_MAX || level != IPPROTO_TCP || len != sizeof(int) || !value)
        return false;
    unsigned char s = atomic_load(&state[fd]);
    if (!(s & GUARDED))
        return false;
    int v;
    memcpy(&v, value, sizeof v);
    if (name == TCP_CORK)
        return true; /* never corked: each send is whole */
    if (name != TCP_NODELAY)
        return false;
    if (v && (s & NODELAY_ON))
        return true; /* already on: nothing is held back to push */
    atomic_store(&state[fd], (unsigned char)(GUARDED | (v ? NODELAY_ON : 0)));
    return false;
}
