#!/bin/sh
# Instructions per call of the sort and json fixtures' functions in each mode, counted
# by callgrind: unlike wall-clock time, the count does not depend on what else
# the machine is doing. Each figure is (count for 200 calls - count for 100
# calls) / 100, so start-up (including building the registry) cancels out.
#
#   benches/instructions.sh            # from the workspace root
#
# Modes (see benches/examples/profile.rs): plain (no attribute), off (the
# annotated copy, no mutant, probes off), probes (probe::record_into, every
# probe on), mutant (run_mutant with a mutant of another function active),
# here (run_mutant with a same-result mutant of the workload's own code).
set -eu
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 1; }
cargo build --release -q -p mu2-bench --example profile
bin=target/release/examples/profile
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" "$3" 2>&1 |
        sed -n 's/.*refs: *//p' | tr -d ,
}
printf '| workload | plain | off | probes | mutant elsewhere | mutant here |\n|---|---:|---:|---:|---:|---:|\n'
for w in insertion_sort merge_sort binary_search json_parse; do
    line="| $w"
    for m in plain off probes mutant here; do
        a=$(count "$w" "$m" 100)
        b=$(count "$w" "$m" 200)
        n=$(((b - a) / 100))
        if [ "$m" = plain ]; then
            p=$n
            line="$line | $n"
        else
            line="$line | $n ($(awk "BEGIN { printf \"%.1fx\", $n / $p }"))"
        fi
    done
    echo "$line |"
done
echo
echo "(binary_search: one call = 120 searches of a 50-element slice; json_parse: one call = 16 generated texts parsed, the mutant elsewhere is in the printer)"
