/* json_floor.c — bench/telemetry's reference figure for ingest: how fast
 * jansson alone (the JSON library DESIGN.md fixes) parses and frees the
 * records of an NDJSON file, one line at a time on one thread, as ingest
 * does before it checks or stores anything. Prints records/s and µs a record.
 * Usage: json_floor FILE.jsonl */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <time.h>

int main(int argc, char **argv)
{
    FILE *f = argc == 2 ? fopen(argv[1], "r") : NULL;
    if (!f) {
        fprintf(stderr, "usage: json_floor FILE.jsonl\n");
        return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long records = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    while ((n = getline(&line, &cap, f)) > 0) {
        json_error_t e;
        json_t *v = json_loadb(line, (size_t)n, JSON_REJECT_DUPLICATES, &e);
        if (!v) {
            fprintf(stderr, "line %ld: %s\n", records + 1, e.text);
            return 1;
        }
        json_decref(v);
        records++;
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%ld records in %.2f s of CPU: %.0f records/s, %.2f us a record\n", records, s, records / s,
           s * 1e6 / (double)records);
    free(line);
    fclose(f);
    return 0;
}
