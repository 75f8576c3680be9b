/* notes.h — what a renderer tells the deploy state about the stored
 * configuration it could not express (BIRD's FlowSpec, the nftables
 * scrubber): one text per reason, prefixed with the plane's name. */
#ifndef PARAPET_DATAPLANE_NOTES_H
#define PARAPET_DATAPLANE_NOTES_H

#include <jansson.h>

/* Appends "<plane>: <text>" to the array `notes` unless it holds that text
 * already; does nothing when notes is NULL (the caller keeps none). */
void dataplane_note(json_t *notes, const char *plane, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
