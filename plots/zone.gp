# Sequential read throughput against position: the steps are the zones,
# from the outer (fast) tracks at the start to the inner ones at the end.
#   gnuplot -c plots/zone.gp DATA.tsv OUT.png|OUT.svg
if (ARGC < 2) { print "usage: gnuplot -c zone.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
DIR = dirof(ARG0, "") . "."
load DIR . "/common.gp"

set title sprintf("%s: sequential read rate by position, %s points%s", drive, hdr("samples"), partial) noenhanced
set xlabel "position (GB, 10^9 bytes)"
set ylabel "throughput (MB/s, 10^6 bytes/s)"
set yrange [0:*]
eval pad("x", 1, 1e-9, 0)
set datafile separator "\t"
plot DATA using ($1/1e9):2 with linespoints pt 7 ps 0.5 lw 1.5 lc rgb "#1f77b4" title "sequential read"
