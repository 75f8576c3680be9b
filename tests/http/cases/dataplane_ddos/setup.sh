#!/bin/sh
# setup.sh DIR PEER_PORT LOCAL_PORT — the BIRD standing in for the scrubber
# (or upstream) that parapet's BIRD exports its routes to: 127.0.0.2 on
# PEER_PORT, AS 64513, importing everything (diversions into master4,
# FlowSpec into flowtab4/flowtab6), exporting nothing. multihop: a session
# on 127.0.0.x needs it.
set -eu
d=$1 peer=$2 local=$3
mkdir -p "$d"
cat > "$d/peer.conf" <<CONF
log "$d/peer.log" all;
router id 192.0.2.2;
flow4 table flowtab4;
flow6 table flowtab6;
protocol device { scan time 60; }
protocol bgp scrubber {
  local 127.0.0.2 port $peer as 64513;
  neighbor 127.0.0.1 port $local as 64512;
  strict bind on;
  multihop;
  connect retry time 1;
  ipv4 { import all; export none; };
  flow4 { table flowtab4; import all; export none; };
  flow6 { table flowtab6; import all; export none; };
}
CONF
