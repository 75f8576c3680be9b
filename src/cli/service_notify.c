/* service_notify.c — see service_notify.h. The variable stays set: the
 * STOPPING message comes later; only the main process' messages count
 * (NotifyAccess=main), so the data planes' commands inheriting it matter not. */
#include "cli/service_notify.h"

#include <stdio.h>
#include <systemd/sd-daemon.h>

void service_ready(const char *status)
{
    if (sd_notifyf(0, "READY=1\nSTATUS=%s", status) < 0)
        fprintf(stderr, "parapet: could not tell systemd the server is ready\n");
}

void service_stopping(void)
{
    sd_notify(0, "STOPPING=1\nSTATUS=stopping");
}
