#!/usr/bin/env bash
# usage: docs/results/scripts/cpu-per-put.sh CHECKOUT [sync]
# A fresh 3-process cluster of the built CHECKOUT (sync batch by default), 5 s of `cluster load --pipeline 256` to
# warm it, then a measured 10 s run: prints PUT/s and the CPU time the three server processes (and the client JVM)
# spent per acknowledged PUT, read from /proc. Run two checkouts alternately to compare them side by side.
w=$1; s=${2:-batch}; cd "$w" || exit 1; d=/tmp/cpp-$RANDOM
./pragh cluster start --machines 3 --dir $d --sync $s > /tmp/cpp-start.log 2>&1 \
  || { tail -3 /tmp/cpp-start.log; ./pragh cluster stop --dir $d > /dev/null 2>&1; exit 1; }
./pragh cluster load --dir $d --pipeline 256 --gremlin off --seconds 5 > /dev/null 2>&1
tick() { t=0; for i in 0 1 2; do t=$((t + $(awk '{print $14+$15}' /proc/$(cat $d/machine-$i.pid)/stat))); done; echo $t; }
nowarm=$(grep -q warmup-seconds pragh-server/src/main/java/io/pragh/server/cli/LoadCommand.java && echo --warmup-seconds 0)
a=$(tick)
out=$( { /usr/bin/time -f "CLIENT %U %S" ./pragh cluster load --dir $d --pipeline 256 --gremlin off $nowarm 2>&1; } 2>&1 )
b=$(tick)
n=$(echo "$out" | grep -o '[0-9]* acknowledged' | grep -o '[0-9]*'); rate=$(echo "$out" | grep -o '[0-9]* PUT/s')
cl=$(echo "$out" | awk '/CLIENT/{print ($2+$3)*100}')
echo "$(git rev-parse --short HEAD) $s load $(cut -d' ' -f1 /proc/loadavg): $rate; server CPU" \
  "$(( (b-a)*10000000/n/1000 )) us/PUT (3 procs), client $(echo "$cl*10000/$n" | bc) us/PUT (incl JVM start)"
./pragh cluster stop --dir $d > /dev/null 2>&1; rm -rf $d
