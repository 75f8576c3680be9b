/* manpage.c — `parapet manpage parapet|serve|admin`: the man pages
 * parapet(1), parapet-serve(8) and parapet-admin(8) in roff, made from
 * what the program says of itself: serve's option table (serve_options.c)
 * and the usage texts of the commands, so that they cannot drift from it.
 * The package builds them with this (debian/rules). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options_doc.h"
#include "cli/serve_options.h"

/* What `print` writes on stderr (a command's usage), as text. */
static char *captured_stderr(void (*print)(void *), void *ctx)
{
    FILE *tmp = tmpfile();
    if (!tmp)
        return NULL;
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fileno(tmp), STDERR_FILENO);
    print(ctx);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    long n = ftell(tmp);
    char *text = n >= 0 ? calloc(1, (size_t)n + 1) : NULL;
    rewind(tmp);
    if (text && fread(text, 1, (size_t)n, tmp) != (size_t)n) {
        free(text);
        text = NULL;
    }
    fclose(tmp);
    return text;
}

static void admin_usage_of(void *ctx)
{
    (void)ctx;
    cli_admin(0, NULL);
}

static void main_usage_of(void *ctx)
{
    ((void (*)(void))ctx)();
}

/* A usage text as a no-fill block (the "usage: " of its first line cut). */
static void usage_block(FILE *out, const char *text)
{
    if (strncmp(text, "usage: ", 7) == 0)
        text += 7;
    fputs(".nf\n", out);
    roff_text(out, text);
    fputs(".fi\n", out);
}

static void header(FILE *out, const char *name, int section, const char *what)
{
    fprintf(out, ".TH %s %d \"\" \"parapet\" \"%s\"\n.SH NAME\n", name, section,
            section == 1 ? "User Commands" : "System Administration");
    roff_text(out, name);
    fputs(" \\- ", out);
    roff_text(out, what);
    fputc('\n', out);
}

static const char files_text[] =
    ".SH FILES\n"
    ".TP\n/etc/parapet/parapet.conf\n"
    "The configuration the packaged service passes to \\fBparapet serve \\-\\-config\\fR.\n"
    ".TP\n/var/lib/parapet\n"
    "The packaged service's data directory: \\fIparapet.db\\fR (SQLite), \\fItls/\\fR, and the files "
    "rendered for the data planes (\\fIknot/\\fR, \\fInginx/\\fR, \\fIfastnetmon/\\fR, \\fIbird/\\fR).\n";

static void page_parapet(FILE *out, void (*main_usage)(void))
{
    header(out, "parapet", 1, "managed-security Open API server");
    fputs(".SH SYNOPSIS\n", out);
    char *usage = captured_stderr(main_usage_of, (void *)main_usage);
    usage_block(out, usage ? usage : "");
    free(usage);
    fputs(".SH DESCRIPTION\n"
          "\\fBparapet\\fR serves the managed-security Open API over HTTPS: token issuance for apps, "
          "customers, DNS Protection zones (deployed to Knot DNS), and the configuration of Origin "
          "Protection, CleanPipe and Application Protection, rendered for FastNetMon, BIRD and nginx with "
          "ModSecurity, with the telemetry they report behind its dashboards. "
          "\\fBparapet serve\\fR runs the server (parapet\\-serve(8)); \\fBparapet admin\\fR is the "
          "operator's command line (parapet\\-admin(8)).\n",
          out);
    fputs(files_text, out);
    fputs(".SH SEE ALSO\nparapet\\-serve(8), parapet\\-admin(8)\n", out);
}

static void page_serve(FILE *out)
{
    header(out, "parapet-serve", 8, "the parapet HTTPS server");
    fputs(".SH SYNOPSIS\n\\fBparapet serve\\fR [\\fB\\-\\-config\\fR \\fIFILE\\fR] [\\fIoptions\\fR]\n"
          ".SH DESCRIPTION\n"
          "Serves the API, the web console and the data-plane deployers until SIGTERM or SIGINT: then it "
          "stops accepting connections, lets the requests in flight finish (\\fB\\-\\-shutdown\\-grace\\fR) "
          "and exits 0. Under systemd (\\fIType=notify\\fR) it tells the service manager when it is ready "
          "and when it stops. Schema migrations run at start; a binary older than its database refuses "
          "to start.\n"
          ".SH OPTIONS\n",
          out);
    opts_man(out, serve_options);
    fputs(".SH CONFIGURATION FILE\n"
          "\\fB\\-\\-config\\fR \\fIFILE\\fR reads \"key = value\" lines, one option each, named as on "
          "the command line without the leading \"\\-\\-\". Blank lines and lines starting with # are "
          "skipped; a value is the rest of the line (no quotes, no trailing comment); a flag takes true "
          "or false; a repeatable option takes one line per value. An unknown key, a value missing, or a "
          "single option given twice is refused with its line number. Options on the command line win "
          "over the file (the values of a repeatable option replace the file's). "
          "\\fBparapet serve \\-\\-print\\-config\\fR prints a file with every key.\n",
          out);
    fputs(".SH EXIT STATUS\n0: stopped on SIGTERM or SIGINT; 1: could not start (the store, the listener, the TLS "
          "files, a database newer than the binary) or failed; 2: bad options or configuration file.\n",
          out);
    fputs(files_text, out);
    fputs(".SH SEE ALSO\nparapet(1), parapet\\-admin(8), systemd.exec(5)\n", out);
}

static void page_admin(FILE *out)
{
    header(out, "parapet-admin", 8, "the parapet operator's commands");
    fputs(".SH SYNOPSIS\n", out);
    char *usage = captured_stderr(admin_usage_of, NULL);
    usage_block(out, usage ? usage : "");
    free(usage);
    fputs(".SH DESCRIPTION\n"
          "Each command works on the store of \\fB\\-\\-data\\fR \\fIDIR\\fR (default ./parapet\\-data; "
          "/var/lib/parapet for the package) or of \\fB\\-\\-store\\fR \\fIURL\\fR, prints one JSON object "
          "on stdout and exits 0; errors go to stderr with a non\\-zero exit. Run it as the server's user "
          "(\\fBrunuser \\-u parapet \\-\\- parapet admin \\-\\-data /var/lib/parapet ...\\fR for the "
          "package), so that the files it makes belong to the server.\n"
          ".SH BACKUPS\n"
          "\\fBbackup \\-\\-to\\fR \\fIFILE\\fR copies the SQLite database with SQLite's online backup: a "
          "consistent copy while the server reads and writes. \\fBrestore \\-\\-from\\fR \\fIFILE\\fR puts "
          "a copy back into a data directory no server holds. Over PostgreSQL, use pg_dump(1).\n",
          out);
    fputs(files_text, out);
    fputs(".SH SEE ALSO\nparapet(1), parapet\\-serve(8)\n", out);
}

int cli_manpage(int argc, char **argv, void (*main_usage)(void))
{
    const char *page = argc == 1 ? argv[0] : "";
    if (strcmp(page, "parapet") == 0)
        page_parapet(stdout, main_usage);
    else if (strcmp(page, "serve") == 0)
        page_serve(stdout);
    else if (strcmp(page, "admin") == 0)
        page_admin(stdout);
    else {
        fputs("usage: parapet manpage parapet|serve|admin\n", stderr);
        return 2;
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
