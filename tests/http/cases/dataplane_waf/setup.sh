#!/bin/sh
# setup.sh DIR OFFSET — what the dataplane_waf cases need, made at run time:
#   site.pem      a certificate for waf.example and *.waf.example with its
#                 key (uploaded through the API), issued by ca.pem
#   backend.conf  a plain nginx standing in for the customer's backend
#                 203.0.113.77 (the test server maps it to 127.0.0.2): HTTP on
#                 80+OFFSET and HTTPS on 443+OFFSET (SSL bridging), answering
#                 "backend ok <scheme> <uri>", /boom answering 500
set -eu
d=$1 off=$2
mkdir -p "$d"
cd "$d"
certtool --generate-privkey --key-type ecdsa --curve secp256r1 --outfile ca.key 2>/dev/null
printf '%s\n' 'cn = "WAF Test Root"' ca cert_signing_key 'expiration_days = 2' > ca.tmpl
certtool --generate-self-signed --load-privkey ca.key --template ca.tmpl --outfile ca.pem 2>/dev/null
certtool --generate-privkey --key-type ecdsa --curve secp256r1 --outfile site.key 2>/dev/null
printf '%s\n' 'cn = "waf.example"' 'dns_name = "waf.example"' 'dns_name = "*.waf.example"' tls_www_server \
    signing_key 'expiration_days = 2' > site.tmpl
certtool --generate-certificate --load-privkey site.key --load-ca-certificate ca.pem --load-ca-privkey ca.key \
    --template site.tmpl --outfile leaf.pem 2>/dev/null
cat leaf.pem site.key > site.pem
cat > backend.conf <<CONF
worker_processes 1;
pid $d/backend.pid;
error_log $d/backend-error.log;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $d/body;
    proxy_temp_path $d/proxy;
    fastcgi_temp_path $d/fastcgi;
    uwsgi_temp_path $d/uwsgi;
    scgi_temp_path $d/scgi;
    server {
        listen 127.0.0.2:$((80 + off));
        listen 127.0.0.2:$((443 + off)) ssl;
        ssl_certificate $d/leaf.pem;
        ssl_certificate_key $d/site.key;
        location / { return 200 "backend ok \$scheme \$request_uri\n"; }
        location /boom { return 500 "backend failed\n"; }
    }
}
CONF
