/* cases.h — data-driven HTTPS cases: one file per case under
 * tests/http/cases/, each a sequence of steps separated by "---".
 *
 *   # comment
 *   POST $BASE/oauth/credit/token          request line: METHOD URL
 *   header: X-Thing: 1                     a request header
 *   form: app_id=$PA1_ID                   url-encoded body pair (raw, joined with &)
 *   part: name=value                       multipart text part
 *   file: name=filename|content-type|text  multipart file part (\n in text is a newline)
 *   json: {"zone_name": "a.example"}       JSON body (sets Content-Type)
 *   body: raw text                         raw body (no Content-Type unless a header says)
 *   sleep: 2                               wait before sending
 *   expect status 401
 *   expect .code == 40100004               JSON path, compared as JSON (or as a string)
 *   expect .msg ~ secret                   substring
 *   expect .result.id matches ^[0-9a-f]{16}$   POSIX extended regex on the string value
 *   expect .result exists | absent
 *   expect .result.customer length 2       array/object size
 *   expect header Location ~ code=         response header (Location, Allow, Content-Type,
 *                                          Connection, Cache-Control)
 *   save NAME .result.access_token         keep a value (string or JSON text) as $NAME
 *   save NAME location-param code          keep a query parameter of the Location header
 *   ${NOW-300}, ${NOWMIN+60}               the time (unix seconds) when the step runs, with an
 *                                          offset; NOWMIN is the start of that minute
 *   retry: 50                              try the step up to 50 times, 0.2 s apart, until
 *                                          every expectation holds (for asynchronous work)
 *   run: kdig @127.0.0.1 -p $DNS_PORT ...  a step that runs a shell command instead of a
 *   expect exit 0                          request: its exit status, and its stdout+stderr
 *   expect output ~ text | !~ text | matches RE
 *   start: exec bird -f -c $CASE_TMP/b.conf   a process for the rest of the case (in a process
 *                                          group of its own, stopped by its PID when the case
 *                                          ends, however it ends; output in $CASE_TMP/start-N.log);
 *                                          wait for it with a run: step and retry:
 *   $CASE_TMP                              a fresh directory of this case, removed at its end
 *
 * Every JSON reply is also checked against the envelope rules (code/msg
 * types, code 0 exactly on 2xx, 8-digit codes whose first 3 digits are the
 * HTTP status). */
#ifndef PARAPET_TEST_CASES_H
#define PARAPET_TEST_CASES_H

/* Runs one case file; returns 0 when every step held. */
int case_run(const char *path, const char *ca_file);

#endif
