#!/bin/sh
# peer_count.sh CTL PATTERN BIRDC-ARGS... — how many lines of the peer's
# `birdc BIRDC-ARGS` match PATTERN, printed as "count=N"; exit 1 when the
# peer is unreachable or its session to parapet's BIRD is not Established
# (so that "count=0" only ever means withdrawn).
set -u
ctl=$1 pattern=$2
shift 2
birdc -s "$ctl" show protocols scrubber | grep -q Established || { echo "session down"; exit 1; }
out=$(birdc -s "$ctl" "$@" 2>&1)
case $out in
*"Network not found"*) echo "count=0"; exit 0 ;; # `show route PREFIX` of a withdrawn one
esac
birdc -s "$ctl" "$@" >/dev/null 2>&1 || { echo "birdc failed: $out"; exit 1; }
echo "count=$(printf '%s\n' "$out" | grep -c -- "$pattern")"
