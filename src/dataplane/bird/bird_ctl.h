/* bird_ctl.h — BIRD's control socket without birdc: connect to the
 * AF_UNIX socket, read the `0001 BIRD ... ready.` greeting, send one
 * command, read the reply up to its last line (four digits and a space).
 * Codes 0xxx are success, 1xxx table rows, 8xxx run-time and 9xxx parse
 * errors (BIRD's doc/reply_codes). */
#ifndef PARAPET_BIRD_CTL_H
#define PARAPET_BIRD_CTL_H

#include <stddef.h>

/* Runs `command` (e.g. "configure"). Returns the reply's final code (>= 0;
 * out holds the reply's text, lines without their codes), -2 when nothing
 * listens on the socket (BIRD is not running), or -1 when BIRD could not be
 * reached or did not answer (out says why). Waits at most timeout_ms a read. */
int bird_ctl(const char *socket_path, const char *command, int timeout_ms, char *out, size_t out_len);

#endif
