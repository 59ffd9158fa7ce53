# The drives' response time against signed seek distance (compare-common.gp; the
# distance axis of plots/axis.gp), with the per-distance median and p99 of the
# media samples (plots/pctl.awk).  Side by side: every sample of each drive;
# overlay: the median and p99 lines of every drive.  Reads and writes differ in
# mark and dash as well as colour.
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
call dirof(ARG0, "") . "./compare-common.gp" ARG1 ARG2 ARG3 ARG4 ARG5 ARG6
WHAT = "response time by seek distance, median and p99 of the media samples"
set ylabel "response time (ms)"
eval both_ranges("1:(strcol(5) ne \"error\" ? $3 : 1/0)")
# symlog's c: the smallest distance of either file, down to a power of two.
stats FA using (abs($1) > 0 ? abs($1) : 1/0) nooutput
SYMC = STATS_min
stats FB using (abs($1) > 0 ? abs($1) : 1/0) nooutput
SYMC = STATS_min < SYMC ? STATS_min : SYMC
do for [k = 1:NMORE] { stats word(MORE, k) using (abs($1) > 0 ? abs($1) : 1/0) nooutput; SYMC = STATS_min < SYMC ? STATS_min : SYMC }
SYMC = 2**floor(log(SYMC) / log(2))
load DIR . "/axis.gp"
# Side by side the keys go below the panels, so that three or more panels keep their width.
if (side) { set key outside below horizontal noenhanced }
eval dist_axis(XLO, XHI, PANEL_PX, side ? "distance, - in, + out" : "seek distance, - inward, + outward")
# A panel's label says only what the axis is: the chart's own title is above all of them.
if (side && !linear_axis) { set xlabel "distance, - in, + out (bytes, symlog)" noenhanced }
set yrange [0:YHI * 1.05]
pct(F, op) = sprintf("< awk -F'\t' -v key=1 -v val=3 -v media=1 -v op=%s -f '%s/pctl.awk' '%s' | sort -g | awk '$1 >= 0 && p < 0 { print x } { print; p = $1 }'", op, DIR, F)
has(F, op) = system(sprintf("grep -c '\t%s\t' '%s' || true", op, F)) + 0 > 0
pts(F, op, c) = sprintf("'%s' using (xd($1)):(strcol(4) eq \"%s\" && strcol(5) ne \"error\" ? $3 : 1/0) with points pt %d ps 0.35 lc rgb '%s' title '%s'", F, op, (op eq "read") ? 7 : 8, c, op)
dts(op) = (op eq "read") ? "dt 1" : "dt 4"
dtp(op) = (op eq "read") ? "dt 2" : "dt (1, 2)"
lines(F, op, c, t) = sprintf("\"%s\" using (xd($1)):3 with lines lw 2 %s lc rgb '%s' title '%s%s median', \"%s\" using (xd($1)):5 with lines lw 2 %s lc rgb '%s' title '%s%s p99'", pct(F, op), dts(op), c, t, op, pct(F, op), dtp(op), c, t, op)
oneop(F, op, c, w) = side ? pts(F, op, (op eq "read") ? "#1f77b4" : "#e377c2") . ", " . lines(F, op, (op eq "read") ? "#000000" : "#8c0000", "") : lines(F, op, c, w . " ")
P(F, c, w) = (has(F, "read") ? oneop(F, "read", c, w) : "NaN notitle") . (has(F, "write") ? ", " . oneop(F, "write", (w eq "A") ? "#0b3c68" : "#a04000", w) : "")
eval draw
