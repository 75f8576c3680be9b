/* service_notify.h — tells systemd (Type=notify units) that `parapet serve`
 * is ready and when it stops, through libsystemd's sd_notify; without
 * $NOTIFY_SOCKET (not under systemd) these do nothing. */
#ifndef PARAPET_CLI_SERVICE_NOTIFY_H
#define PARAPET_CLI_SERVICE_NOTIFY_H

/* READY=1 with a one-line STATUS. */
void service_ready(const char *status);
/* STOPPING=1. */
void service_stopping(void);

#endif
