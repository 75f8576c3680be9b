#!/bin/sh
# req.sh OFFSET VIPS SCHEME HOST PORT PATH [curl options...] — one request to
# the test nginx for domain HOST on its domain port PORT: the site's VIP
# 192.0.2.x (the first of VIPS, a JSON array as the API answers it) is
# served on 127.0.2.x, port PORT on PORT+OFFSET (the test server's
# --nginx-listen-map and --nginx-port-offset). Prints
# "status=N http=V location=L", then the body.
set -u
off=$1 vips=$2 scheme=$3 host=$4 port=$5 path=$6
shift 6
addr=$(printf '%s' "$vips" | tr -d '[]" ' | cut -d, -f1 | sed 's/^192\.0\.2\./127.0.2./')
p=$((port + off))
curl -sS -k -g --path-as-is --max-time 5 --resolve "$host:$p:$addr" -o "${TMPDIR:-/tmp}/req.$$" \
    -w 'status=%{http_code} http=%{http_version} location=%{redirect_url}\n' "$@" "$scheme://$host:$p$path"
rc=$?
cat "${TMPDIR:-/tmp}/req.$$" 2>/dev/null
rm -f "${TMPDIR:-/tmp}/req.$$"
exit $rc
