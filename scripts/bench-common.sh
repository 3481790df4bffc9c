# Sourced by the bench scripts: the load average, a timestamp, a median.
load() { cut -d' ' -f1-3 /proc/loadavg; }
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
