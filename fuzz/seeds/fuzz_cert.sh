#!/bin/sh
# fuzz/seeds/fuzz_cert.sh DIR — writes real cert_file uploads into DIR for
# fuzz_cert (tests/fuzz.sh runs it on the scratch corpus): a chain root →
# intermediate → leaf valid on 2026-01-01 with its key as PKCS#8, SEC 1
# and RSA PKCS#1, plus a few broken variants. No encrypted PKCS#8 seed:
# certtool's 600000 PBKDF2 rounds would slow every run to a crawl. Made
# with certtool at run time; nothing generated is kept in git.
set -eu
out=$(cd "$1" && pwd)
command -v certtool >/dev/null || { echo "fuzz_cert seeds: certtool (gnutls-bin) is missing" >&2; exit 0; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t"
dates='activation_date = "2024-01-01 00:00:00"
expiration_date = "2035-01-01 00:00:00"'
printf 'cn = Seed Root\nca\ncert_signing_key\n%s\n' "$dates" >root.tmpl
printf 'cn = Seed Intermediate\nca\ncert_signing_key\n%s\n' "$dates" >int.tmpl
printf 'cn = seed.example.org\ndns_name = seed.example.org\ndns_name = *.example.com\ntls_www_server\nsigning_key\n%s\n' "$dates" >leaf.tmpl
gen() { certtool --generate-privkey --no-text "$@" </dev/null 2>/dev/null; }
gen --key-type=ecdsa --outfile root.key
gen --key-type=ecdsa --outfile int.key
gen --key-type=ecdsa --outfile leaf.sec1.key
gen --key-type=rsa --bits=2048 --outfile rsa.key
certtool --to-p8 --load-privkey leaf.sec1.key --outfile leaf.key </dev/null >/dev/null 2>&1
certtool --generate-self-signed --load-privkey root.key --template root.tmpl --outfile root.crt >/dev/null 2>&1
ca="--load-ca-certificate root.crt --load-ca-privkey root.key"
certtool --generate-certificate --load-privkey int.key --template int.tmpl --outfile int.crt $ca >/dev/null 2>&1
ca="--load-ca-certificate int.crt --load-ca-privkey int.key"
certtool --generate-certificate --load-privkey leaf.key --template leaf.tmpl --outfile leaf.crt $ca >/dev/null 2>&1
certtool --generate-certificate --load-privkey rsa.key --template leaf.tmpl --outfile rsa.crt $ca >/dev/null 2>&1
cat leaf.crt int.crt root.crt leaf.key >"$out/seed_chain"
cat leaf.sec1.key leaf.crt int.crt >"$out/seed_sec1"
cat rsa.crt int.crt rsa.key >"$out/seed_pkcs1"
cat leaf.crt root.crt int.crt leaf.key >"$out/seed_out_of_order"
cat leaf.crt int.crt rsa.key >"$out/seed_wrong_key"
