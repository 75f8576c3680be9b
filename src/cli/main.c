/* main.c — `parapet serve ...` and `parapet admin ...`. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void usage(void)
{
    fputs(
        "usage: parapet serve [--dev] [--data DIR] [--listen HOST:PORT] [options]   (parapet serve --help)\n"
        "       parapet admin [--data DIR] <command>                               (parapet admin)\n"
        "       parapet capture-agent [--data DIR] (--interface IF | --pcap FILE) [--once]\n"
        "       parapet ingest [--data DIR] [--batch N] FILE.jsonl|-                  (docs/telemetry.md)\n"
        "       parapet fastnetmon-notify [--data DIR] [--state DIR] IP DIRECTION PPS ACTION\n"
        "                        (FastNetMon's notify_script_path; docs/dataplane.md)\n"
        "       parapet simulate [--data DIR] --seed N [--days D] [--rate R] [--waf-rate W] [--end T]\n"
        "                        [--out FILE|- | --ingest]                       (docs/telemetry.md)\n"
        "       parapet openapi [--server URL]       the OpenAPI 3.1 document (GET /api/openapi.json)\n"
        "       parapet manpage parapet|serve|admin  the man pages parapet(1), parapet-serve(8), parapet-admin(8)\n"
        "every command: --store postgresql://... (or PARAPET_STORE) keeps the data in PostgreSQL\n"
        "       instead of DIR/parapet.db (docs/deploy.md)\n",
        stderr);
}

/* Takes `--store URL` (or --store=URL) out of argv: every command honours it. */
static int take_store_option(int argc, char **argv)
{
    int out = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--store") == 0 && i + 1 < argc) {
            cli_set_store(argv[++i]);
            continue;
        }
        if (strncmp(argv[i], "--store=", 8) == 0) {
            cli_set_store(argv[i] + 8);
            continue;
        }
        argv[out++] = argv[i];
    }
    argv[out] = NULL;
    return out;
}

int main(int argc, char **argv)
{
    json_object_seed(0);
    argc = take_store_option(argc, argv);
    if (argc < 2) {
        usage();
        return 2;
    }
    if (strcmp(argv[1], "serve") == 0)
        return cli_serve(argc - 2, argv + 2);
    if (strcmp(argv[1], "admin") == 0)
        return cli_admin(argc - 2, argv + 2);
    if (strcmp(argv[1], "capture-agent") == 0)
        return cli_capture_agent(argc - 2, argv + 2);
    if (strcmp(argv[1], "simulate") == 0)
        return cli_simulate(argc - 2, argv + 2);
    if (strcmp(argv[1], "ingest") == 0)
        return cli_ingest(argc - 2, argv + 2);
    if (strcmp(argv[1], "fastnetmon-notify") == 0)
        return cli_fastnetmon_notify(argc - 2, argv + 2);
    if (strcmp(argv[1], "openapi") == 0)
        return cli_openapi(argc - 2, argv + 2);
    if (strcmp(argv[1], "manpage") == 0)
        return cli_manpage(argc - 2, argv + 2, usage);
    usage();
    return 2;
}
