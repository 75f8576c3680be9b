#!/bin/sh
# count_limits.sh BIN DATA BASE — the CleanPipe count limits: 100 sites per
# customer and 1000 hosts per site. Makes a portal, a portal app and a
# customer of its own (so no other case sees them), fills each limit, prints
# the refusal of one more and what is held then, shows the refused name and
# block are still free once one is deleted, then deletes everything it made.
# Uses 198.19.0.0/22 (the 101st site, then its hosts) and 198.19.4.0/24 ..
# 198.19.103.0/24 (the first 100 sites).
set -u
bin=$1 data=$2 base=$3
member() { sed -n "s/.*\"$1\":\"\([0-9a-f]*\)\".*/\1/p"; }
portal=$("$bin" admin --data "$data" portal create --name 'CP count limits' | member portal_id)
app=$("$bin" admin --data "$data" app create --kind portal --portal "$portal" --name 'CP count limits app')
app_id=$(echo "$app" | member app_id)
secret=$(echo "$app" | member secret)
cust=$("$bin" admin --data "$data" customer create --portal "$portal" --name 'CP count limits' --services op |
    member customer_id)
tok=$(curl -sk "$base/oauth/credit/token" -d "app_id=$app_id" -d "secret=$secret" -d grant_type=client_credential |
    member access_token)
[ -n "$cust" ] && [ -n "$tok" ] || { echo "setup failed"; exit 1; }
cpc="$base/api/spe/customer/$cust/cp"
cfg=$(mktemp)
trap 'rm -f "$cfg"' EXIT
# batch METHOD: one curl process (one connection) for many requests; reads
# "PATH [JSON BODY]" lines on stdin, prints one answer a line
batch() {
    : >"$cfg"
    while read -r path body; do
        [ -s "$cfg" ] && echo next >>"$cfg"
        printf 'insecure\nsilent\nrequest = "%s"\nurl = "%s%s?access_token=%s"\nwrite-out = "\\n"\n' "$1" "$cpc" \
            "$path" "$tok" >>"$cfg"
        [ -n "$body" ] && printf 'header = "Content-Type: application/json"\ndata = "%s"\n' \
            "$(echo "$body" | sed 's/"/\\"/g')" >>"$cfg"
    done
    curl -K "$cfg"
}
site_body() { echo "{\"site_name\":\"$1\",\"cidr\":[\"$2\"],\"mitigation_group_profile_id\":1}"; }
count() { curl -sk "$cpc/$1?access_token=$tok" | grep -o "\"$2\"" | wc -l; }

# ---- 100 sites per customer ----
sites=$(for i in $(seq 1 100); do echo "/site $(site_body "limit$i" "198.19.$((i + 3)).0/24")"; done |
    batch POST | member site_id)
echo "sites: $(echo $sites | wc -w)"
echo "site 101: $(curl -sk -w ' %{http_code}' -H 'Content-Type: application/json' "$cpc/site?access_token=$tok" \
    -d "$(site_body limit101 198.19.0.0/22)")"
echo "sites held after the refusal: $(count sites site_id)"
curl -sk "$cpc/sites?access_token=$tok" | grep -q limit101 && echo "limit101 was stored"
first=$(echo $sites | cut -d' ' -f1)
curl -sk -X DELETE "$cpc/site/$first?access_token=$tok" >/dev/null
sites=$(echo $sites | cut -d' ' -f2-)
site=$(curl -sk -H 'Content-Type: application/json' "$cpc/site?access_token=$tok" \
    -d "$(site_body limit101 198.19.0.0/22)" | member site_id)
[ -n "$site" ] && echo "site 101 after a delete: created"

# ---- 1000 hosts per site (in limit101, 198.19.0.0/22) ----
host_body() { echo "{\"host_name\":\"h$1\",\"cidr\":[\"198.19.$(($1 / 256)).$(($1 % 256))\"]}"; }
hosts=$(for i in $(seq 0 999); do echo "/site/$site/host $(host_body "$i")"; done | batch POST | member host_id)
echo "hosts: $(echo $hosts | wc -w)"
echo "host 1001: $(curl -sk -w ' %{http_code}' -H 'Content-Type: application/json' \
    "$cpc/site/$site/host?access_token=$tok" -d "$(host_body 1000)")"
echo "hosts held after the refusal: $(count "site/$site/hosts" host_id)"
first=$(echo $hosts | cut -d' ' -f1)
curl -sk -X DELETE "$cpc/site/$site/host/$first?access_token=$tok" >/dev/null
hosts=$(echo $hosts | cut -d' ' -f2-)
id=$(curl -sk -H 'Content-Type: application/json' "$cpc/site/$site/host?access_token=$tok" -d "$(host_body 1000)" |
    member host_id)
[ -n "$id" ] && echo "host 1001 after a delete: created" && hosts="$hosts $id"

# ---- clean up ----
for id in $hosts; do echo "/site/$site/host/$id"; done | batch DELETE >/dev/null
for id in $sites $site; do echo "/site/$id"; done | batch DELETE >/dev/null
echo "sites held at the end: $(count sites site_id)"
"$bin" admin --data "$data" app revoke --app "$app_id" >/dev/null
