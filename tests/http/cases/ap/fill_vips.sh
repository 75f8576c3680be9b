#!/bin/sh
# fill_vips.sh API TOKEN CUSTOMER — creates Application Protection sites
# until the VIP pools are exhausted, prints the refusal, deletes them, then
# checks that the addresses were released: a new site gets the first one's
# IPv4 VIP again (the lowest free address). Exit 1 when something is off.
set -u
api=$1 tok=$2 cust=$3
ids="" first="" out=""
site_vip() { curl -sk "$api/spe/customer/$cust/ap/site/$1?access_token=$tok" | sed -n 's/.*"vip":\["\([^"]*\)".*/\1/p'; }
create() {
    curl -sk "$api/spe/customer/$cust/ap/site?access_token=$tok" -d "site_name=$1" -d backend_type=0 \
        -d service_plan=basic -d backend_ip=203.0.113.80
}
for i in $(seq 1 40); do
    out=$(create "fill$i")
    id=$(echo "$out" | sed -n 's/.*"site_id":"\([0-9a-f]*\)".*/\1/p')
    [ -z "$id" ] && break
    [ -z "$first" ] && first=$(site_vip "$id")
    ids="$ids $id"
done
echo "refused: $out"
for id in $ids; do
    curl -sk -X DELETE "$api/spe/customer/$cust/ap/site/$id?access_token=$tok" >/dev/null
done
[ -n "$ids" ] || { echo "no site was created"; exit 1; }
out=$(create again)
id=$(echo "$out" | sed -n 's/.*"site_id":"\([0-9a-f]*\)".*/\1/p')
again=$(site_vip "$id")
curl -sk -X DELETE "$api/spe/customer/$cust/ap/site/$id?access_token=$tok" >/dev/null
echo "first=$first again=$again"
[ -n "$first" ] && [ "$first" = "$again" ]
