#!/bin/sh
# certs.sh DIR — the certificates the Application Protection cases upload,
# made with certtool (gnutls-bin) at run time, never committed:
#   good.pem       leaf (www.cert.example, cert.example) + intermediate + key
#   wrongkey.pem   the same chain with another key
#   disorder.pem   leaf, root, intermediate (out of order)
#   broken.pem     leaf + root (the intermediate is missing)
#   expired.pem    an expired leaf + intermediate + key
#   othername.pem  leaf for other.example
#   wild.pem       leaf for *.wild.example
#   encrypted.pem  good's chain with its key as encrypted PKCS#8 (password "s3cret")
#   many.pem       leaf for www.cert.example and 120 more names (host-number-N.cert.example: 3.4 KB of SANs)
set -eu
d=$1
mkdir -p "$d"
cd "$d"
[ -f good.pem ] && exit 0
key() { certtool --generate-privkey --key-type ecdsa --curve secp256r1 --outfile "$1" 2>/dev/null; }
tmpl() { printf '%s\n' "$@" > t.tmpl; }
key ca.key
tmpl 'cn = "Parapet Test Root"' ca cert_signing_key 'expiration_days = 30'
certtool --generate-self-signed --load-privkey ca.key --template t.tmpl --outfile ca.pem 2>/dev/null
key inter.key
tmpl 'cn = "Parapet Test Intermediate"' ca cert_signing_key 'expiration_days = 30'
certtool --generate-certificate --load-privkey inter.key --load-ca-certificate ca.pem --load-ca-privkey ca.key \
    --template t.tmpl --outfile inter.pem 2>/dev/null
leaf() { # name, key, out, extra template lines...
    n=$1 k=$2 o=$3
    shift 3
    key "$k"
    tmpl "cn = \"$n\"" "dns_name = \"$n\"" tls_www_server signing_key 'expiration_days = 20' "$@"
    certtool --generate-certificate --load-privkey "$k" --load-ca-certificate inter.pem \
        --load-ca-privkey inter.key --template t.tmpl --outfile "$o" 2>/dev/null
}
leaf www.cert.example leaf.key leaf.pem 'dns_name = "cert.example"'
cat leaf.pem inter.pem leaf.key > good.pem
key other.key
cat leaf.pem inter.pem other.key > wrongkey.pem
cat leaf.pem ca.pem inter.pem leaf.key > disorder.pem
cat leaf.pem ca.pem leaf.key > broken.pem
key old.key
tmpl 'cn = "www.cert.example"' 'dns_name = "www.cert.example"' tls_www_server signing_key \
    'activation_date = "2020-01-01 00:00:00"' 'expiration_date = "2020-06-01 00:00:00"'
certtool --generate-certificate --load-privkey old.key --load-ca-certificate inter.pem --load-ca-privkey inter.key \
    --template t.tmpl --outfile old.pem 2>/dev/null
cat old.pem inter.pem old.key > expired.pem
leaf other.example other2.key other.pem
cat other.pem inter.pem other2.key > othername.pem
leaf '*.wild.example' wild.key wildleaf.pem
cat wildleaf.pem inter.pem wild.key > wild.pem
certtool --to-p8 --load-privkey leaf.key --password s3cret --outfile leaf.p8 2>/dev/null
cat leaf.pem inter.pem leaf.p8 > encrypted.pem
names=$(i=1; while [ $i -le 120 ]; do printf 'dns_name = "host-number-%d.cert.example"\n' $i; i=$((i + 1)); done)
leaf www.cert.example many.key manyleaf.pem "$names"
cat manyleaf.pem inter.pem many.key > many.pem
