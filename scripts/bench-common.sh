# Sourced by the bench scripts: the load average, a timestamp, a median,
# and the quartiles (the middle half of the values lies between them).
load() { cut -d' ' -f1-3 /proc/loadavg; }
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
quartiles() { sort -g | awk '{ v[NR] = $1 } END { q1 = v[int((NR + 3) / 4)]; q3 = v[int((3 * NR + 3) / 4)]; printf "%.2f–%.2f", q1, q3 }'; }
