# Two drives' sequential read rate by position (compare-common.gp).
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
call dirof(ARG0, "") . "./compare-common.gp" ARG1 ARG2 ARG3 ARG4 ARG5 ARG6
WHAT = "sequential read rate by position"
set xlabel "position (GB, 10^9 bytes)"
set ylabel "throughput (MB/s, 10^6 bytes/s)"
eval both_ranges("($1/1e9):2")
set xrange [0:XHI * 1.02]
set yrange [0:YHI * 1.1]
P(F, c, w) = sprintf("'%s' using ($1/1e9):2 with linespoints pt 7 ps 0.5 lw 1.5 lc rgb '%s' title '%s'", F, c, w)
eval draw
