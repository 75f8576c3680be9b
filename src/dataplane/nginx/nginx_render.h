/* nginx_render.h — one Application Protection site as an nginx
 * configuration fragment (its upstreams and one server block per domain
 * port and listen address) plus the files the fragment names: a ModSecurity
 * rules file per domain port (content-addressed: modsec/<digest>.conf) and
 * the certificate chain and private key of each certificate
 * (tls/<key id>.crt, .key; the key 0600). Deterministic: the same model and
 * settings give the same bytes. docs/dataplane.md has the mapping.
 *
 * Listen addresses are shared between sites (one --nginx-listen address) or
 * between a site's domains (its VIPs). nginx 1.22 keeps `ssl` and `http2`
 * per address and port, so the pass first claims every site's listens in
 * order (nginx_listens_claim): a port that is HTTP for one server and HTTPS
 * for another at the same address refuses the later site, and HTTP/2 is
 * offered on an address and port only when every server there has it on. */
#ifndef PARAPET_NGINX_RENDER_H
#define PARAPET_NGINX_RENDER_H

#include <jansson.h>
#include <stddef.h>

#include "dataplane/nginx/nginx_settings.h"

/* Claims the listens of `site` (an nginx_model.h site) in `listens`
 * ({"addr:port": {"scheme", "h2"}}). 0, or -1 with err when one clashes
 * (nothing of the site is claimed then). */
int nginx_listens_claim(json_t *listens, const json_t *site, const struct nginx_settings *st, char *err,
                        size_t errlen);

/* The site's fragment (malloc'd); `files` (an object) gets an entry per file
 * the fragment names, relative to st->dir: {"text": content} or
 * {"copy": source path, "mode": 384}. NULL with err when the site cannot be
 * rendered (a custom rule or list that does not compile, or a stored value
 * that could end a token, a directive or a line where it would be written:
 * the API lets none through). */
char *nginx_site_render(const json_t *site, const struct nginx_settings *st, const json_t *listens,
                        json_t *files, char *err, size_t errlen);

#endif
