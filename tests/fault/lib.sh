# tests/fault/lib.sh — what the fault tests share (sourced by tests/fault/run
# and tests/fault/disk-full, after they set `b` (the build directory), `tag`
# (their name in messages) and cd to the project's root): a template world
# made once by `serve --dev`, starting and stopping a server on a copy,
# requests that record what was acknowledged, a workload of writes of every
# kind, the checks of the rendered files, and a fresh server's read-back of
# every acknowledged write.
root=$(pwd)
bin=$root/$b/parapet
for tool in curl sqlite3 cc; do
  command -v $tool >/dev/null || { echo "$tag: $tool missing"; echo "$tag: 0 passed, 1 failed"; exit 1; }
done
work=$(mktemp -d /tmp/parapet-$tag-XXXXXX)
passed=0; failed=0
pass() { passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
finish() { echo "$tag: $passed passed, $failed failed"; [ "$failed" -eq 0 ] && [ -z "${FAULT_KEEP:-}" ] && rm -rf "$work"; [ "$failed" -eq 0 ]; exit $?; }
port=$((21000 + $$ % 20000)); mport=$((port + 1))
B=https://127.0.0.1:$port
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null' EXIT

cc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$work/inject.so" tests/fault/inject.c -ldl ||
  { fail "cannot build the injector"; finish; }

# serve DIR LOG [VAR=VALUE...]: starts a server on DIR (the fault variables
# as given), waits until it answers; pid set.
serve() {
  d=$1 log=$2; shift 2
  env "$@" "$bin" serve --data "$d" --listen 127.0.0.1:$port --metrics-listen 127.0.0.1:$mport --rate-limit 0 \
    --dns-deploy-interval 1 --ddos-deploy-interval 1 --nginx-deploy-interval 1 >"$log.out" 2>"$log" &
  pid=$!
  for _ in $(seq 150); do
    curl -sk -o /dev/null "$B/" 2>/dev/null && return 0
    kill -0 $pid 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}
# stop: stops the server; a sanitizer's report in its log (VARIANT=asan) fails
stop() {
  kill $pid 2>/dev/null; wait $pid 2>/dev/null; pid=""
  if grep -q "ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:" "${log:-/dev/null}" 2>/dev/null; then
    fail "a sanitizer report in $log"
  fi
}

# A template world: --dev's portal, apps and customers (and its month of
# telemetry), an ingest token; every run starts from a copy.
tpl=$work/template
log=$work/template.log
"$bin" serve --dev --data "$tpl" --listen 127.0.0.1:$port --rate-limit 0 >"$work/template.out" 2>"$log" &
pid=$!
for _ in $(seq 300); do curl -sk -o /dev/null "$B/" 2>/dev/null && break; sleep 0.05; done
sleep 1 # the first deploy passes
stop
creds=$tpl/dev-credentials.json
val() { sed -n "/\"$1\"/,/}/s/.*\"$2\": \"\([0-9a-f]*\)\".*/\1/p" "$creds" | head -n 1; }
PA=$(val portal_app app_id); PS=$(val portal_app secret)
IA=$(val installed_app app_id); IS=$(val installed_app secret)
C1=$(val customer_1 customer_id); C2=$(val customer_2 customer_id); XSPE=$(val installation xspe)
ING=$("$bin" admin --data "$tpl" ingest-token create --name fault 2>/dev/null | sed -n 's/.*"token": *"\([^"]*\)".*/\1/p')
"$bin" admin --data "$tpl" asn add --asn 64500 --prefix 10.101.0.0/24 --prefix 10.102.0.0/24 --prefix 10.103.0.0/24 \
  --prefix 10.104.0.0/24 >/dev/null 2>&1
# a token of the template's, for reads and for checking (any run's may be lost to its fault)
serve "$tpl" "$work/template2.log" || { fail "setup: the template does not start again"; finish; }
T0=$(curl -sk "$B/oauth/credit/token" -d app_id="$PA" -d secret="$PS" -d grant_type=client_credential |
  sed -n 's/.*"access_token":"\([0-9a-f]*\)".*/\1/p')
stop
[ -n "$PA" ] && [ -n "$IA" ] && [ -n "$C2" ] && [ -n "$ING" ] && [ -n "$T0" ] || { fail "setup: no dev world ($work/template.log)"; finish; }

# call RUN KIND METHOD URL [curl args]: one request; appends "KIND HTTP CODE"
# to RUN/answers and leaves the body in RUN/body.
call() {
  r=$1 kind=$2 method=$3 url=$4; shift 4
  http=$(curl -sk -m 10 -X "$method" -o "$r/body" -w '%{http_code}' "$url" "$@" 2>/dev/null) || http=000
  code=$(sed -n 's/^{"code":\([0-9]*\).*/\1/p' "$r/body" 2>/dev/null)
  echo "$kind $http ${code:--}" >>"$r/answers"
}
acked() { [ "$http" = 200 ] && [ "$code" = 0 ]; }
result() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p" "$r/body"; }

# workload RUN: writes of every kind, recording what was acknowledged in
# RUN/acked (lines "token T", "app T", "zone NAME", "site ID", "batch ALERT").
workload() {
  r=$1; n=$(basename "$r"); : >"$r/acked"; : >"$r/answers"
  for i in 1 2 3; do
    call "$r" token POST "$B/oauth/credit/token" -d app_id="$PA" -d secret="$PS" -d grant_type=client_credential
    acked && echo "token $(result access_token)" >>"$r/acked"
  done
  code_url=$(curl -sk -m 10 -o /dev/null -w '%{redirect_url}' "$B/oauth/connect?app_id=$IA&redirect_uri=https://app.example.test/callback&response_type=code&scope=install_login&xspe=$XSPE&state=s&customer_id=$C1")
  ac=$(echo "$code_url" | sed -n 's/.*code=\([0-9a-f]*\).*/\1/p')
  call "$r" login POST "$B/oauth/access_token" -d app_id="$IA" -d secret="$IS" -d code="$ac" -d grant_type=authorization_code
  acked && echo "app $(result access_token)" >>"$r/acked"
  app=$(sed -n 's/^app //p' "$r/acked")
  for i in 1 2 3 4; do
    call "$r" zone POST "$B/api/specp/dp/v2/zones/standard?access_token=$app" -H 'Content-Type: application/json' \
      -d "{\"zone_name\":\"z$i-$n.example\",\"enable_dnssec\":false}"
    acked && echo "zone z$i-$n.example" >>"$r/acked"
    call "$r" site POST "$B/api/spe/customer/$C2/op/site?access_token=$T0" \
      -d site_name="s${i}_$n" -d as_num=64500 -d cidr="10.$((100 + i)).0.0/24"
    acked && echo "site $(result site_id)" >>"$r/acked"
    site=$(result site_id)
    now=$(date +%s)
    call "$r" ingest POST "$B/ingest/v1/records" -H "Authorization: Bearer $ING" -H 'Content-Type: application/json' \
      -d "[{\"kind\":\"ddos_event\",\"alert_id\":\"a$i-$n\",\"attack_type\":\"UDP Fragmentation\",\"site_ip\":\"10.$((100 + i)).0.9\",\"start_time\":$((now - 120)),\"max_bps\":8000,\"max_pps\":10,\"severity\":\"high\"},{\"kind\":\"flow\",\"flow_id\":\"f$i-$n\",\"time\":$((now - 60)),\"router\":\"r1\",\"src_ip\":\"198.51.100.7\",\"dst_ip\":\"10.$((100 + i)).0.9\",\"protocol\":17,\"bytes\":1500,\"packets\":1}]"
    [ -n "$site" ] && acked && echo "batch a$i-$n" >>"$r/acked"
  done
  sleep 1.2 # the deployers' passes (woken by the writes)
  call "$r" read GET "$B/api/spe/customers?access_token=$T0"
}

# checks RUN: the files installed, the database, a fresh server's view.
check_files() {
  r=$1 d=$r/data bad=""
  for f in "$d/nginx/sites.conf" "$d/knot/zones.conf" "$d/bird/bird.conf" "$d/fastnetmon/fastnetmon.conf"; do
    [ -s "$f" ] && [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] && [ "$(head -c 1 "$f")" = "#" ] ||
      bad="$bad $(basename "$f"):torn"
  done
  grep -qvE '^[0-9a-f.:]+/[0-9]+$' "$d/fastnetmon/networks_list" && bad="$bad networks_list:torn"
  nginx -t -q -c "$d/nginx/nginx.conf" -p "$d/nginx/" -e "$r/nginx-t.log" 2>"$r/nginx-t.err" ||
    bad="$bad nginx-t"
  knotc -c "$d/knot/knot.conf" conf-check >/dev/null 2>"$r/knotc.err" || bad="$bad knotc"
  (cd "$d/bird" && bird -p -c bird.conf 2>"$r/bird.err") || bad="$bad bird-p"
  echo "$bad"
}

# verify_acked RUN: a fresh server (no fault) on RUN/data reads back every
# write RUN/acked lists; prints how many are missing (or "no-start").
verify_acked() {
  r=$1
  if ! serve "$r/data" "$r/fresh.log"; then
    stop; echo no-start; return
  fi
  lost=0
  app=$(sed -n 's/^app //p' "$r/acked" | tail -n 1)
  sed -n 's/^token //p' "$r/acked" >"$r/tokens"
  while read -r t; do
    s=$(curl -sk -m 10 -o /dev/null -w '%{http_code}' "$B/api/spe/customers?access_token=$t")
    [ "$s" = 200 ] || lost=$((lost + 1))
  done <"$r/tokens"
  [ -n "$app" ] && curl -sk -m 10 "$B/api/specp/dp/v2/zones?page_index=1&access_token=$app" >"$r/zones"
  for z in $(sed -n 's/^zone //p' "$r/acked"); do grep -q "\"$z\"" "$r/zones" || lost=$((lost + 1)); done
  for s in $(sed -n 's/^site //p' "$r/acked"); do
    [ "$(curl -sk -m 10 -o /dev/null -w '%{http_code}' "$B/api/spe/customer/$C2/op/site/$s?access_token=$T0")" = 200 ] ||
      lost=$((lost + 1))
  done
  stop
  for a in $(sed -n 's/^batch //p' "$r/acked"); do
    [ "$(sqlite3 "$r/data/parapet.db" "SELECT count(*) FROM tel_ddos_events WHERE alert_id = '$a'")" = 1 ] ||
      lost=$((lost + 1))
  done
  echo "$lost"
}
