# Two drives' write-interval delay (compare-common.gp): latency of the second write
# against the measured idle interval before it.
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
call dirof(ARG0, "") . "./compare-common.gp" ARG1 ARG2 ARG3 ARG4 ARG5 ARG6
WHAT = "write latency after an idle interval"
set xlabel "idle interval between the two writes, measured (ms)"
set ylabel "latency of the second write (ms)"
eval both_ranges("2:(strcol(4) ne \"error\" ? $3 : 1/0)")
set xrange [XLO:XHI]
set yrange [0:YHI * 1.05]
P(F, c, w) = sprintf("'%s' using 2:(strcol(4) ne \"error\" ? $3 : 1/0) with points pt 7 ps 0.4 lc rgb '%s' title '%s'", F, c, w)
eval draw
