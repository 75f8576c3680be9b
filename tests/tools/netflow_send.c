/* netflow_send.c — a NetFlow v5 flood for the data plane tests: every
 * second, one export packet toward HOST:PORT (loopback only) whose records
 * say that SRC sent DST `pps` packets of `size` bytes in the last second
 * (protocol and destination port given). FastNetMon counts them as traffic
 * of DST. Record layout: Cisco's NetFlow v5 (24-byte header, 48-byte
 * records, network byte order).
 *
 *   netflow-send 127.0.0.1:PORT SRC DST PROTO DPORT PPS SIZE SECONDS
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { RECORDS = 10, HEADER = 24, RECORD = 48 };

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v >> 16), put16(p + 2, v & 0xffff);
}

int main(int argc, char **argv)
{
    if (argc != 9) {
        fprintf(stderr, "usage: netflow-send 127.0.0.1:PORT SRC DST PROTO DPORT PPS SIZE SECONDS\n");
        return 2;
    }
    char host[64];
    snprintf(host, sizeof host, "%s", argv[1]);
    char *colon = strrchr(host, ':');
    struct sockaddr_in to = {.sin_family = AF_INET};
    struct in_addr src, dst;
    if (!colon || (*colon = '\0', inet_pton(AF_INET, host, &to.sin_addr) != 1) ||
        (ntohl(to.sin_addr.s_addr) >> 24) != 127 || inet_pton(AF_INET, argv[2], &src) != 1 ||
        inet_pton(AF_INET, argv[3], &dst) != 1) {
        fprintf(stderr, "netflow-send: a loopback HOST:PORT and IPv4 SRC and DST are needed\n");
        return 2;
    }
    to.sin_port = htons((uint16_t)atoi(colon + 1));
    unsigned proto = (unsigned)atoi(argv[4]), dport = (unsigned)atoi(argv[5]);
    uint32_t pps = (uint32_t)atol(argv[6]), size = (uint32_t)atol(argv[7]);
    int seconds = atoi(argv[8]);
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0)
        return 1;
    uint32_t sequence = 0;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int s = 0; s < seconds; s++) {
        uint8_t pkt[HEADER + RECORDS * RECORD] = {0};
        uint32_t uptime = (uint32_t)(s + 1) * 1000 + 60000;
        put16(pkt, 5), put16(pkt + 2, RECORDS);
        put32(pkt + 4, uptime);
        put32(pkt + 8, (uint32_t)time(NULL));
        put32(pkt + 16, sequence);
        for (int i = 0; i < RECORDS; i++) {
            uint8_t *r = pkt + HEADER + i * RECORD;
            memcpy(r, &src, 4), memcpy(r + 4, &dst, 4);
            put32(r + 16, pps / RECORDS);              /* dPkts */
            put32(r + 20, pps / RECORDS * size);       /* dOctets */
            put32(r + 24, uptime - 1000), put32(r + 28, uptime); /* first, last */
            put16(r + 32, 40000 + (unsigned)i), put16(r + 34, dport);
            r[38] = (uint8_t)proto;
        }
        sequence += RECORDS;
        if (sendto(fd, pkt, sizeof pkt, 0, (struct sockaddr *)&to, sizeof to) < 0)
            perror("netflow-send");
        struct timespec next = {start.tv_sec + s + 1, start.tv_nsec};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
    }
    close(fd);
    return 0;
}
