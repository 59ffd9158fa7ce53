# Two drives' response time against |seek distance| (compare-common.gp), with the
# per-distance median and p99 (plots/pctl.awk).  Side by side: every sample of each
# drive; overlay: the median (solid) and p99 (dashed) lines of both drives.
call sprintf("%s/compare-common.gp", system(sprintf("dirname '%s'", ARG0))) ARG1 ARG2 ARG3 ARG4 ARG5 ARG6
WHAT = "response time by |seek distance|, median and p99"
set xlabel "|seek distance| (MB, 10^6 bytes; log scale)"
set ylabel "response time (ms)"
set logscale x
eval both_ranges("(abs($1)/1e6):(strcol(5) ne \"error\" ? $3 : 1/0)")
set xrange [XLO:XHI]
set yrange [0:YHI * 1.05]
pct(F, op) = sprintf("< awk -F'\t' -v key=1 -v val=3 -v absolute=1 -v op=%s -f '%s/pctl.awk' '%s' | sort -g", op, DIR, F)
has(F, op) = system(sprintf("grep -c '\t%s\t' '%s' || true", op, F)) + 0 > 0
pts(F, op, c) = sprintf("'%s' using (abs($1)/1e6):(strcol(4) eq \"%s\" && strcol(5) ne \"error\" ? $3 : 1/0) with points pt 7 ps 0.3 lc rgb '%s' title '%s'", F, op, c, op)
lines(F, op, c, t) = sprintf("\"%s\" using ($1/1e6):3 with lines lw 2 lc rgb '%s' title '%s %s median', \"%s\" using ($1/1e6):5 with lines lw 2 dt 2 lc rgb '%s' title '%s %s p99'", pct(F, op), c, t, op, pct(F, op), c, t, op)
oneop(F, op, c, w) = side ? pts(F, op, (op eq "read") ? "#1f77b4" : "#d62728") . ", " . lines(F, op, "#000000", "") : lines(F, op, c, w)
P(F, c, w) = oneop(F, "read", c, w) . (has(F, "write") ? ", " . oneop(F, "write", (w eq "A") ? "#0b3c68" : "#a04000", w) : "")
eval draw
