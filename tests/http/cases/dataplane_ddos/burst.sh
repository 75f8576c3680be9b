#!/bin/sh
# burst.sh CA METRICS_PORT URL N CONF — N updates of a host's UDP detection
# threshold (low_pps 1001 .. 1000+N) sent back to back over one connection,
# then: the FastNetMon configuration CONF must come to hold the last one
# (within 30 s), and the ddos deployer must have made about one pass per
# second of the burst, not one per write or per 50 ms. Prints
# "passes=P seconds=S writes=N" and "ok" or why not.
set -u
ca=$1 mport=$2 url=$3 n=$4 conf=$5
passes() {
  curl -sS "http://127.0.0.1:$mport/metrics" |
    awk '/^parapet_deploy_passes_total\{deployer="ddos"/ { p += $2 } END { print p + 0 }'
}
before=$(passes)
start=$(date +%s.%N)
set --
i=1
while [ "$i" -le "$n" ]; do
  [ "$i" -gt 1 ] && set -- "$@" --next
  set -- "$@" -sS -o /dev/null -w '%{http_code}\n' --cacert "$ca" \
    -d type=udp -d name=udp_total -d is_enabled=1 -d low_pps=$((1000 + i)) -d high_pps=1M "$url"
  i=$((i + 1))
done
codes=$(curl "$@" | sort | uniq -c | tr -s ' ')
stop=$(date +%s.%N)
last=$((1000 + n))
for _ in $(seq 300); do
  grep -q "_threshold_udp_pps = $last\$" "$conf" 2>/dev/null && break
  sleep 0.1
done
after=$(passes)
secs=$(echo "$start $stop" | awk '{ printf "%.1f", $2 - $1 }')
p=$((after - before))
echo "passes=$p seconds=$secs writes=$n answers:$codes"
grep -q "_threshold_udp_pps = $last\$" "$conf" || { echo "the last write ($last) is not in $conf"; exit 1; }
# one pass a second while the writes keep coming, the one after the last
# and three to spare (a 50 ms pause of the client; the 1 s sweep of
# --ddos-deploy-interval 1 before the burst began)
allowed=$(echo "$secs" | awk '{ printf "%d", $1 + 4 }')
[ "$p" -le "$allowed" ] || { echo "more than $allowed passes"; exit 1; }
echo ok
