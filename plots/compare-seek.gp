# The drives' seek scatters: latency against signed distance (compare-common.gp;
# the distance axis of plots/axis.gp).  Side by side: media and cache samples of
# each drive with the median and p99 of its media samples per bin; overlay: every
# drive's media samples with their typical latency per distance bin (from the
# BINS file of compare).  The key lists only the classes
# a file has.
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
call dirof(ARG0, "") . "./compare-common.gp" ARG1 ARG2 ARG3 ARG4 ARG5 ARG6
op = system(sprintf("sed -n 's/^# params: op=\\([a-z]*\\).*/\\1/p' '%s' | head -n 1", FA))
WHAT = sprintf("%s seek: latency against signed distance", op)
set ylabel "latency (ms)"
eval both_ranges("1:(strcol(5) ne \"error\" ? $3 : 1/0)")
load DIR . "/axis.gp"
# Side by side the keys go below the panels, so that three or more panels keep their width.
if (side) { set key outside below horizontal noenhanced }
eval dist_axis(XLO, XHI, PANEL_PX, side ? "distance from reference" : "signed distance from reference")
# A panel's label says only what the axis is: the chart's own title is above all of them.
if (side && !linear_axis) { set xlabel "distance from reference (bytes, symlog)" noenhanced }
set yrange [0:YHI * 1.05]
has(F, c) = system(sprintf("grep -c -m 1 -e '\t%s\t' '%s' || true", c, F)) + 0 > 0
media(F, col, t) = sprintf("'%s' using (xd($1)):(strcol(5) eq \"media\" ? $3 : 1/0) with points pt 7 ps 0.3 lc rgb '%s' title '%s'", F, col, t)
cache(F, t) = has(F, "cache") ? sprintf(", '%s' using (xd($1)):(strcol(5) eq \"cache\" ? $3 : 1/0) with points pt 6 ps 0.5 lc rgb '#2ca02c' title '%s'", F, t) : ""
# The typical latency per bin: outward bins at +d, inward ones at -d.
col(w) = (w eq "A") ? 8 : 9
typ(w, c) = (BINS eq "") ? "" : sprintf(", '%s' using (strcol(2) eq \"outward\" ? xd($3) : 1/0):%d with lines lw 2 lc rgb '%s' notitle, '%s' using (strcol(2) eq \"inward\" ? xd(-$3) : 1/0):%d with lines lw 2 lc rgb '%s' title '%s typical'", BINS, col(w), c, BINS, col(w), c, w)
# Side by side: the median and p99 of the media samples per bin (plots/pctl.awk, 4 bins a decade).
pct(F) = sprintf("< awk -F'\t' -v key=1 -v val=3 -v media=1 -v symc=%.17g -v bpd=4 -f '%s/pctl.awk' '%s' | sort -g | awk '$1 >= 0 && p < 0 { print x } { print; p = $1 }'", SYMC, DIR, F)
lines(F) = sprintf(", \"%s\" using (xd($1)):3 with lines lw 2 lc rgb '#000000' title 'median', \"%s\" using (xd($1)):5 with lines lw 2 dt 2 lc rgb '#000000' title 'p99'", pct(F), pct(F))
P(F, c, w) = side ? media(F, "#1f77b4", "media") . cache(F, "cache hit") . lines(F) : media(F, c, w . " media") . typ(w, (w eq "A") ? "#0b3c68" : "#a04000")
eval draw
