#!/bin/sh
# limits.sh API TOKEN CUSTOMER — the per-customer site limit (50) and the
# per-site domain limit (100, an enterprise-plan site): creates up to the limit, prints the refusal of
# one more, then deletes everything it made. The caller provides VIP room.
set -u
api=$1 tok=$2 cust=$3
site_url="$api/spe/customer/$cust/ap/site"
id_of() { sed -n 's/.*"\(site\|domain\)_id":"\([0-9a-f]*\)".*/\2/p'; }
sites=""
for i in $(seq 1 50); do
    id=$(curl -sk "$site_url?access_token=$tok" -d "site_name=limit$i" -d backend_type=0 -d service_plan=enterprise \
        -d backend_ip=203.0.113.90 | id_of)
    [ -n "$id" ] && sites="$sites $id"
done
echo "sites: $(echo $sites | wc -w)"
echo "site 51: $(curl -sk "$site_url?access_token=$tok" -d site_name=limit51 -d backend_type=0 \
    -d service_plan=basic -d backend_ip=203.0.113.90)"
first=$(echo $sites | cut -d' ' -f1)
domains=""
for i in $(seq 1 100); do
    id=$(curl -sk "$site_url/$first/domain?access_token=$tok" -d "domain_name=d$i.limits.example" | id_of)
    [ -n "$id" ] && domains="$domains $id"
done
echo "domains: $(echo $domains | wc -w)"
echo "domain 101: $(curl -sk "$site_url/$first/domain?access_token=$tok" -d domain_name=d101.limits.example)"
for id in $domains; do curl -sk -X DELETE "$site_url/$first/domain/$id?access_token=$tok" >/dev/null; done
for id in $sites; do curl -sk -X DELETE "$site_url/$id?access_token=$tok" >/dev/null; done
echo "left: $(curl -sk "$api/spe/customer/$cust/ap/site-report?access_token=$tok")"
