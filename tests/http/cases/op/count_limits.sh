#!/bin/sh
# count_limits.sh BIN DATA BASE — the Origin Protection count limits: 256
# networks per site and 1024 hosts per network. Makes a portal, a portal app
# and a customer of its own (its 2,600 requests would use up the per-app
# quota of a shared app), fills each limit in a site of its own
# (10.126.0.0/16 and 10.127.0.0/16), prints the refusal of one more and what
# is held then, and deletes everything it made.
set -u
bin=$1 data=$2 base=$3
member() { sed -n "s/.*\"$1\":\"\([0-9a-f]*\)\".*/\1/p"; }
portal=$("$bin" admin --data "$data" portal create --name 'OP count limits' | member portal_id)
app=$("$bin" admin --data "$data" app create --kind portal --portal "$portal" --name 'OP count limits app')
app_id=$(echo "$app" | member app_id)
secret=$(echo "$app" | member secret)
cust=$("$bin" admin --data "$data" customer create --portal "$portal" --name 'OP count limits' --services op |
    member customer_id)
tok=$(curl -sk "$base/oauth/credit/token" -d "app_id=$app_id" -d "secret=$secret" -d grant_type=client_credential |
    member access_token)
[ -n "$cust" ] && [ -n "$tok" ] || { echo "setup failed"; exit 1; }
ops="$base/api/spe/customer/$cust/op/site"
cfg=$(mktemp)
trap 'rm -f "$cfg"' EXIT
# batch METHOD: one curl process (one connection) for many requests; reads
# "PATH [FORM BODY]" lines on stdin, prints one answer a line
batch() {
    : >"$cfg"
    while read -r path body; do
        [ -s "$cfg" ] && echo next >>"$cfg"
        printf 'insecure\nsilent\nrequest = "%s"\nurl = "%s%s?access_token=%s"\nwrite-out = "\\n"\n' "$1" "$ops" \
            "$path" "$tok" >>"$cfg"
        [ -n "$body" ] && printf 'data = "%s"\n' "$body" >>"$cfg"
    done
    curl -K "$cfg"
}
count() { curl -sk "$ops/$1?access_token=$tok" | grep -o "\"$2\"" | wc -l; }

site=$(curl -sk "$ops?access_token=$tok" -d site_name=op_count_limits -d as_num=64500 -d cidr=10.126.0.0/16 \
    -d cidr=10.127.0.0/16 | member site_id)
[ -n "$site" ] || { echo "setup failed"; exit 1; }

# ---- 256 networks per site ----
nets=$(for i in $(seq 0 255); do echo "/$site/network network_name=n$i&cidr=10.126.$i.0/24"; done |
    batch POST | member network_id)
echo "networks: $(echo $nets | wc -w)"
echo "network 257: $(curl -sk -w ' %{http_code}' "$ops/$site/network?access_token=$tok" \
    -d network_name=hosts -d cidr=10.127.0.0/24)"
echo "networks held after the refusal: $(count "$site/networks" network_id)"

# ---- 1024 hosts per network (after one network is deleted) ----
first=$(echo $nets | cut -d' ' -f1)
curl -sk -X DELETE "$ops/$site/network/$first?access_token=$tok" >/dev/null
nets=$(echo $nets | cut -d' ' -f2-)
net=$(curl -sk "$ops/$site/network?access_token=$tok" -d network_name=hosts -d cidr=10.127.0.0/24 \
    -d cidr=10.127.1.0/24 -d cidr=10.127.2.0/24 -d cidr=10.127.3.0/24 -d cidr=10.127.4.0/24 | member network_id)
[ -n "$net" ] && echo "network 257 after a delete: created"
hosts=$(for i in $(seq 0 1023); do echo "/$site/network/$net/host host_name=h$i&cidr=10.127.$((i / 256)).$((i % 256))"; done |
    batch POST | member host_id)
echo "hosts: $(echo $hosts | wc -w)"
echo "host 1025: $(curl -sk -w ' %{http_code}' "$ops/$site/network/$net/host?access_token=$tok" \
    -d host_name=h1024 -d cidr=10.127.4.0)"
echo "hosts held after the refusal: $(count "$site/network/$net/hosts" host_id)"

# ---- clean up ----
for h in $hosts; do echo "/$site/network/$net/host/$h"; done | batch DELETE >/dev/null
for n in $nets $net; do echo "/$site/network/$n"; done | batch DELETE >/dev/null
curl -sk -X DELETE "$ops/$site?access_token=$tok" >/dev/null
echo "site held at the end: $(curl -sk "$ops/$site?access_token=$tok" | grep -c '"code":0')"
"$bin" admin --data "$data" app revoke --app "$app_id" >/dev/null
