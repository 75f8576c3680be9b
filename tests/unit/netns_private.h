/* netns_private.h — moves a unit test into a network namespace of its own
 * (before it starts threads), so that it may load nftables rulesets and send
 * packets without touching the host's: as root a new namespace, otherwise
 * a new user namespace with one (nftables then works as in `unshare -rn`).
 * The namespace goes away with the process. Returns 0, or -1. */
#ifndef PARAPET_TEST_NETNS_PRIVATE_H
#define PARAPET_TEST_NETNS_PRIVATE_H

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static inline int netns_write(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

static inline int netns_private(void)
{
    if (unshare(CLONE_NEWNET) == 0)
        return 0;
    uid_t uid = getuid();
    gid_t gid = getgid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
        perror("unshare");
        return -1;
    }
    char map[64];
    netns_write("/proc/self/setgroups", "deny");
    snprintf(map, sizeof map, "0 %u 1", (unsigned)uid);
    if (netns_write("/proc/self/uid_map", map) != 0)
        return -1;
    snprintf(map, sizeof map, "0 %u 1", (unsigned)gid);
    return netns_write("/proc/self/gid_map", map);
}

#endif
