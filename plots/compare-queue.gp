# Two drives' queued random reads (compare-common.gp): IOPS against the number of
# concurrent clients N, and the p99 latency on the right axis.
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
call dirof(ARG0, "") . "./compare-common.gp" ARG1 ARG2 ARG3 ARG4 ARG5 ARG6
WHAT = "queued random reads: IOPS (solid) and p99 latency (dashed) by clients"
set xlabel "concurrent clients (N)"
set ylabel "IOPS"
set y2label "p99 latency (ms)"
set logscale x 2
set ytics nomirror
set y2tics
# stats honours ranges already set: both first, then the ranges.
eval both_ranges("1:8")
Y2HI = YHI
eval both_ranges("1:3")
set xrange [XLO / 1.2:XHI * 1.2]
set yrange [0:YHI * 1.1]
set y2range [0:Y2HI * 1.1]
P(F, c, w) = sprintf("'%s' using 1:3 axes x1y1 with linespoints lw 2 pt 7 lc rgb '%s' title '%s IOPS', '%s' using 1:8 axes x1y2 with linespoints lw 1.5 dt 2 pt 6 lc rgb '%s' title '%s p99'", F, c, w, F, c, w)
eval draw
