# The fitted seek curve (hddscope fit): positioning time against distance,
# rotation, transfer and overhead removed, each direction on its own, with
# the fit's Ruemmler-Wilkes model over both.  Log distance axis, so that the
# short seeks (where the square root rules) are not squeezed into a corner.
#   gnuplot -c plots/seekcurve.gp seekcurve.tsv OUT.png|OUT.svg
if (ARGC < 2) { print "usage: gnuplot -c seekcurve.gp seekcurve.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
DIR = dirof(ARG0, "") . "."
load DIR . "/common.gp"

# "a=.. b=.. knee_bytes=.. c=.. e=.. rms_ms=.." from the rw_model header, when there is one.
m = hdr("rw_model")
mval(k) = (strstrt(m, " ".k."=") > 0) ? real(word(substr(m, strstrt(m, " ".k."=") + strlen(k) + 2, strlen(m)), 1)) : NaN
m = " ".m
A = mval("a"); B = mval("b"); KNEE = mval("knee_bytes"); C = mval("c"); E = mval("e"); RMS = mval("rms_ms")
rw(d) = (d < KNEE) ? A + B * sqrt(d) : C + E * d

set title sprintf("%s: fitted seek curve, %s bins, revolution %s ms%s", drive, hdr("bins"), hdr("revolution_ms"), partial) noenhanced
set xlabel "seek distance (MB, 10^6 bytes)"
set ylabel "positioning time (ms)"
set logscale x
eval pad("x", 1, 1e-6, 1)
set datafile separator "\t"
# A fitted time can come out below zero (an overhead larger than a bin's
# positioning, on a device that does not rotate): the axis then starts there.
stats DATA using 2 nooutput
set yrange [(STATS_min < 0 ? 1.1 * STATS_min : 0):*]
set samples 400
if (A != A) {
    plot DATA using ($1 > 0 ? $1/1e6 : NaN):2 with linespoints pt 7 ps 0.6 lw 1.5 lc rgb "#1f77b4" title "toward higher offsets", \
         DATA using ($1 < 0 ? -$1/1e6 : NaN):2 with linespoints pt 5 ps 0.6 lw 1.5 lc rgb "#ff7f0e" title "toward lower offsets"
} else {
    plot DATA using ($1 > 0 ? $1/1e6 : NaN):2 with linespoints pt 7 ps 0.6 lw 1.5 lc rgb "#1f77b4" title "toward higher offsets", \
         DATA using ($1 < 0 ? -$1/1e6 : NaN):2 with linespoints pt 5 ps 0.6 lw 1.5 lc rgb "#ff7f0e" title "toward lower offsets", \
         rw(x * 1e6) with lines lw 1.5 dt 2 lc rgb "#d62728" title sprintf("Ruemmler-Wilkes, rms %.3f ms", RMS)
}
