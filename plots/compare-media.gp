# Two drives' media read time by transfer size (compare-common.gp): every read and
# the per-size median; the overlay draws both drives' medians.
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
call dirof(ARG0, "") . "./compare-common.gp" ARG1 ARG2 ARG3 ARG4 ARG5 ARG6
WHAT = "media read time by transfer size"
set xlabel "transfer size (KiB; log scale)"
set ylabel "latency (ms; log scale)"
set logscale x 2
set logscale y
eval both_ranges("($1/1024):(strcol(4) ne \"error\" ? $3 : 1/0)")
set xrange [XLO / 1.5:XHI * 1.5]
set yrange [YLO / 1.2:YHI * 1.2]
med(F) = sprintf("< awk -F'\t' -v key=1 -v val=3 -v clscol=4 -f '%s/pctl.awk' '%s' | sort -g", DIR, F)
pts(F, c, t) = sprintf("'%s' using ($1/1024):(strcol(4) ne \"error\" ? $3 : 1/0) with points pt %d ps 0.4 lc rgb '%s' title '%s'", F, (t eq "B reads") ? 6 : 7, c, t)
medl(F, c, t) = sprintf("\"%s\" using ($1/1024):3 with linespoints lw 2 pt 5 ps 0.7 lc rgb '%s' title '%s'", med(F), c, t)
# Each drive's reads are named once, by its letter in the overlay.
P(F, c, w) = side ? pts(F, c, "reads") . ", " . medl(F, "#000000", "median") : pts(F, c, w . " reads") . ", " . medl(F, c, w . " median")
eval draw
