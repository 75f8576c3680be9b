#!/bin/sh
# site_limit.sh BIN DATA BASE — the per-customer CleanPipe site limit (100).
# Makes a portal, a portal app and a customer of its own (so no other case
# sees them), fills the customer to 100 sites, prints the refusal of one
# more and what the customer holds then, shows the refused name and block
# are still free once a site is gone, then deletes every site it made.
# Uses 198.19.1.0/24 .. 198.19.101.0/24.
set -u
bin=$1 data=$2 base=$3
member() { sed -n "s/.*\"$1\":\"\([0-9a-f]*\)\".*/\1/p"; }
portal=$("$bin" admin --data "$data" portal create --name 'CP site limit' | member portal_id)
app=$("$bin" admin --data "$data" app create --kind portal --portal "$portal" --name 'CP site limit app')
app_id=$(echo "$app" | member app_id)
secret=$(echo "$app" | member secret)
cust=$("$bin" admin --data "$data" customer create --portal "$portal" --name 'CP site limit' --services op |
    member customer_id)
tok=$(curl -sk "$base/oauth/credit/token" -d "app_id=$app_id" -d "secret=$secret" -d grant_type=client_credential |
    member access_token)
[ -n "$cust" ] && [ -n "$tok" ] || { echo "setup failed"; exit 1; }
cpc="$base/api/spe/customer/$cust/cp"
create() { # NAME N
    curl -sk -H 'Content-Type: application/json' "$cpc/site?access_token=$tok" \
        -d "{\"site_name\":\"$1\",\"cidr\":[\"198.19.$2.0/24\"],\"mitigation_group_profile_id\":1}"
}
count() { curl -sk "$cpc/sites?access_token=$tok" | grep -o '"site_id"' | wc -l; }
sites=""
for i in $(seq 1 100); do
    id=$(create "limit$i" "$i" | member site_id)
    [ -n "$id" ] && sites="$sites $id"
done
echo "sites: $(echo $sites | wc -w)"
echo "site 101: $(curl -sk -w ' %{http_code}' -H 'Content-Type: application/json' "$cpc/site?access_token=$tok" \
    -d '{"site_name":"limit101","cidr":["198.19.101.0/24"],"mitigation_group_profile_id":1}')"
echo "held after the refusal: $(count)"
curl -sk "$cpc/sites?access_token=$tok" | grep -q limit101 && echo "limit101 was stored"
# one site gone, the refused name and block are free
first=$(echo $sites | cut -d' ' -f1)
curl -sk -X DELETE "$cpc/site/$first?access_token=$tok" >/dev/null
sites=$(echo $sites | cut -d' ' -f2-)
id=$(create limit101 101 | member site_id)
[ -n "$id" ] && echo "site 101 after a delete: created" && sites="$sites $id"
for id in $sites; do curl -sk -X DELETE "$cpc/site/$id?access_token=$tok" >/dev/null; done
echo "held at the end: $(count)"
"$bin" admin --data "$data" app revoke --app "$app_id" >/dev/null
