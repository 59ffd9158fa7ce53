# A trace replayed on a simulated drive (hddscope replay -o): the CDF of the
# simulated service times against the trace's measured ones, with the RMS
# horizontal distance between them (DiskSim's validation metric).
#   gnuplot -c plots/replay.gp DATA.tsv OUT.png|OUT.svg
# hddscope plot sets CDF, the two CDFs it computed (index 0 simulated, index
# 1 measured; rows "ms fraction"), and MEASURED (1 when the trace had
# service times); without them gnuplot sums the columns itself (smooth cnormal).
if (ARGC < 2) { print "usage: gnuplot -c replay.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
DIR = dirof(ARG0, "") . "."
load DIR . "/common.gp"
set datafile separator "\t"
set datafile commentschars "#"
rms = hdr("rms_ms")
trace = system(sprintf("basename '%s'", hdr("trace")))
set title sprintf("%s: replay of %s, service-time CDF%s%s", drive, trace, \
    rms eq "" ? "" : sprintf(", RMS distance %s ms", rms), partial) noenhanced
set xlabel "service time (ms; log scale)"
set ylabel "fraction of requests at or below"
set logscale x
set yrange [0:1.02]
set key inside bottom right noenhanced
if (!exists("MEASURED")) { MEASURED = system(sprintf("grep -c -m 1 '^# columns:.*measured_ms' '%s' || true", DATA)) + 0 > 0 }
# A service time of 0 has no place on the log axis: it is drawn at 1 us.
pos(v) = v > 0.001 ? v : 0.001
if (exists("CDF")) {
    S = sprintf("'%s' index 0 using (pos($1)):2 with steps lw 2 lc rgb '#1f77b4' title 'simulated'", CDF)
    M = sprintf("'%s' index 1 using (pos($1)):2 with steps lw 2 dt 2 lc rgb '#d62728' title 'measured (trace)'", CDF)
} else {
    S = "DATA using (pos($5)):(1) smooth cnormal with steps lw 2 lc rgb '#1f77b4' title 'simulated'"
    M = "DATA using (pos($7)):(1) smooth cnormal with steps lw 2 dt 2 lc rgb '#d62728' title 'measured (trace)'"
}
eval "plot " . S . (MEASURED ? ", " . M : "")
