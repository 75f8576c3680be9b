# bench/families.sh — sourced by bench/run after its first rows: each
# family's largest read beside nginx serving the same bytes, then the durable
# writes. Uses run's variables and functions (bin, data, work, pp, token,
# cust, secs, rounds, run, show, median, port, pids).
#
# Reads (bench/seed.py builds their documents through the public API):
#   CleanPipe overview policy of a site with 1,000 hosts   (cp/site/{id}/policy/overview)
#   Origin Protection site report of a customer with 100 sites (op/site-report)
#   AppShield switches of a domain port, the OWASP view of its WAF
# nginx serves each body as a static file (open_file_cache on): a body over
# 4 KB cannot be an nginx `return` string.
# Writes (bench/writes.lua): create/delete cycles and updates of a site, a
# network, a host and a WAF custom rule, each answered once durable; their
# ratio is to nginx's fixed-body POST of the first rows (n.post).
# ROWS (an extended regular expression over the row names: cp_overview,
# op_report, ap_switches, ap_owasp, and the write names of writes.lua) picks
# rows; all by default.
roa=$work/bench-roa.csv
printf 'ASN,IP Prefix,Max Length,Trust Anchor\nAS64496,198.18.0.0/15,32,bench\n%s\n%s\n' \
  "AS64496,11.0.0.0/8,24,bench" "AS64496,12.0.0.0/8,24,bench" > "$roa"
$bin admin --data "$data" asn import "$roa" >/dev/null
$bin admin --data "$data" vip-pool add --cidr 192.0.2.240/28 >/dev/null
$bin admin --data "$data" vip-pool add --cidr 2001:db8:f1::/124 >/dev/null
seed_start=$(date +%s)
python3 bench/seed.py "127.0.0.1:$pp" "$token" "$cust" > "$work/seed.env"
. "$work/seed.env"
echo "seeded the family documents through the API in $(($(date +%s) - seed_start)) s"
# Every write wakes the data planes' deployers (FastNetMon checks, BIRD,
# nginx), which commit deploy states: let them finish, i.e. wait until the
# store's change counter (data_version.h) stays put for 3 s, before measuring.
version() { od -An -tu8 "$data/parapet.db-version" 2>/dev/null | tr -d ' '; }
settle() {
  last=$(version); still=0
  for _ in $(seq 120); do
    sleep 1; now=$(version)
    if [ "$now" = "$last" ]; then still=$((still + 1)); [ $still -ge 3 ] && return 0; else still=0; last=$now; fi
  done
}
settle_start=$(date +%s); settle
echo "deployers settled after $(($(date +%s) - settle_start)) s"

wanted() { [ -z "${ROWS:-}" ] || echo "$1" | grep -Eq "^($ROWS)\$"; }

# one nginx for every read row: /b/NAME answers the file NAME
fp=$(port 4)
mkdir -p "$work/bodies"
chmod a+rx "$work" "$work/bodies" # nginx's workers run as nobody
cat > "$work/nginx/files.conf" <<CONF
worker_processes $(nproc);
pid $work/nginx/files.pid;
error_log $work/nginx/files.log;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 1000000;
  open_file_cache max=64;
  client_body_temp_path $work/nginx;
  proxy_temp_path $work/nginx; fastcgi_temp_path $work/nginx; uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  server {
    listen 127.0.0.1:$fp ssl;
    ssl_certificate $data/tls/cert.pem;
    ssl_certificate_key $data/tls/key.pem;
    ssl_protocols TLSv1.2 TLSv1.3;
    default_type application/json;
    location /b/ { alias $work/bodies/; }
  }
}
CONF
nginx -c "$work/nginx/files.conf" -g 'daemon off;' &
fpid=$!; pids="$pids $fpid"
for _ in $(seq 100); do curl -sk -o /dev/null "https://127.0.0.1:$fp/b/" && break; sleep 0.1; done

# read_row NAME LABEL API_PATH
read_row() {
  wanted "$1" || return 0
  url="https://127.0.0.1:$pp/api$3?access_token=$token"
  curl -sk "$url" > "$work/bodies/$1"
  chmod a+r "$work/bodies/$1"
  if ! grep -q '^{"code":0,' "$work/bodies/$1"; then
    echo "$2: not answered: $(head -c 200 "$work/bodies/$1")"; return 0
  fi
  : > "$work/n.$1"; : > "$work/p.$1"; : > "$work/r.$1"
  for _ in $(seq "$rounds"); do
    n=$(run "nginx-$1" "$fpid" "https://127.0.0.1:$fp/b/$1"); echo "$n" >> "$work/n.$1"
    p=$(run "parapet-$1" "$ppid" "$url"); echo "$p" >> "$work/p.$1"
    echo "${p%% *} ${n%% *}" | awk '{ printf "%.2f\n", ($2 > 0 ? $1 / $2 : 0) }' >> "$work/r.$1"
  done
  show "nginx file ($(wc -c < "$work/bodies/$1") bytes)" "$work/n.$1"
  show "parapet GET $2" "$work/p.$1"
  # shellcheck disable=SC2046
  echo "$1 ratio parapet/nginx: $(median %.2f $(cat "$work/r.$1")) (median of $rounds rounds:" \
       "$(tr '\n' ' ' < "$work/r.$1" | sed 's/ $//'))"
}
read_row cp_overview "CP overview, 1,000 hosts" "$CP_OVERVIEW"
read_row op_report "OP site-report, 100 sites" "$OP_REPORT"
read_row ap_switches "AppShield switches" "$AP_SWITCHES"
read_row ap_owasp "WAF OWASP view" "$AP_OWASP"

# write_row NAME LABEL: the nginx figure is the POST row's median
nginx_post=$(median %.0f $(awk '{ print $1 }' "$work/n.post"))
write_row() {
  wanted "$1" || return 0
  : > "$work/p.$1"
  for round in $(seq 0 $((rounds - 1))); do
    TOKEN=$token BASE=/api/spe/customer/$cust WRITE=$1 AP_WAF=/api$AP_WAF AP_WAF80=/api$AP_WAF80 AP_RULE=$AP_RULE OP_SITE=$OP_SITE \
      OP_NET=$OP_NET OP_HOST=$OP_HOST CYCLE_SITE=$CYCLE_SITE CYCLE_NETS=$CYCLE_NETS ROUND=$round \
      run "parapet-$1" "$ppid" "https://127.0.0.1:$pp" bench/writes.lua >> "$work/p.$1"
  done
  show "parapet $2" "$work/p.$1"
  rps=$(median %.0f $(awk '{ print $1 }' "$work/p.$1"))
  echo "$1 ratio parapet/nginx POST: $(echo "$rps $nginx_post" | awk '{ printf "%.2f", ($2 > 0 ? $1 / $2 : 0) }')"
}
echo "durable writes (creates: create/delete cycles, see bench/writes.lua)"
write_row site_create "site create/delete"
write_row site_update "site update"
write_row network_create "network create/delete"
write_row network_update "network update"
write_row host_create "host create/delete"
write_row host_update "host update"
write_row rule_create "WAF rule create/delete"
write_row rule_update "WAF rule update"
