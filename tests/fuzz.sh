#!/bin/sh
# tests/fuzz.sh [SECONDS] — builds each libFuzzer target fuzz/fuzz_*.c with
# clang (ASan+UBSan) against a fuzz variant of libparapet.a, then runs it for
# SECONDS (default 20) on a scratch copy of fuzz/corpus/<target>/ (plus what
# fuzz/seeds/<target>.sh makes, if it exists), so runs never touch git.
# Everything goes under build/fuzz/. Ends with "fuzz: N targets, N crashes";
# exits non-zero on a crash (or a build error).
set -u
secs=${1:-20}
cd "$(dirname "$0")/.." || exit 2
B=build/fuzz
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# MAKEFLAGS is dropped so "make fuzz" does not pass its own variables and
# jobserver down.
mkdir -p "$B/bin"
env -u MAKEFLAGS -u MFLAGS make -j2 CC=clang CXX=clang++ VARIANT=fuzz OPT="-O1 -g $SAN -fsanitize=fuzzer-no-link" \
  "$B/libparapet.a" >"$B/make.log" 2>&1 || { cat "$B/make.log"; echo "fuzz: build failed"; exit 2; }
PKGS=$(sed -n "s/^PKGS *:= *//p" Makefile) # the Makefile's list
CFLAGS="-std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -Isrc -Ifuzz $(pkg-config --cflags $PKGS)"
LIBS="$(pkg-config --libs $PKGS) -lpthread -lstdc++"
targets=0; crashes=0
for src in fuzz/fuzz_*.c; do
  t=$(basename "$src" .c)
  # shellcheck disable=SC2086
  clang $CFLAGS -O1 -g $SAN -fsanitize=fuzzer -o "$B/bin/$t" "$src" "$B/libparapet.a" $LIBS ||
    { echo "fuzz: build of $t failed"; exit 2; }
  w="$B/work/$t"
  rm -rf "$w"; mkdir -p "$w/corpus" "$w/artifacts"
  [ -d "fuzz/corpus/$t" ] && cp fuzz/corpus/"$t"/* "$w/corpus/" 2>/dev/null
  # seeds that must be made at run time (certificates: never kept in git)
  [ -x "fuzz/seeds/$t.sh" ] && { "fuzz/seeds/$t.sh" "$w/corpus" || echo "$t: seed script failed"; }
  "$B/bin/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$w/artifacts/" "$w/corpus" >"$w/log" 2>&1
  rc=$?
  targets=$((targets + 1))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/log")
  time=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$w/log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$w/log")
  if [ $rc -ne 0 ]; then
    crashes=$((crashes + 1))
    echo "$t: CRASH (exit $rc) after ${runs:-?} runs; input: $(ls "$w"/artifacts/* 2>/dev/null | head -n 1)"
    grep -E "ERROR|SUMMARY|runtime error|#[0-9] 0x" "$w/log" | head -n 15 | sed 's/^/    /'
    echo "    full log: $w/log"
  else
    echo "$t: ${runs:-?} runs in ${time:-$secs} s (${rate:-?}/s), corpus $(ls "$w/corpus" | wc -l) inputs"
  fi
done
echo "fuzz: $targets targets, $crashes crashes"
[ "$crashes" -eq 0 ]
