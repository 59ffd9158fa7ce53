# The classic summary figures as bars: MB/s of each test, IOPS written above
# the random ones.
#   gnuplot -c plots/bench.gp DATA.tsv OUT.png|OUT.svg
if (ARGC < 2) { print "usage: gnuplot -c bench.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
DIR = dirof(ARG0, "") . "."
load DIR . "/common.gp"

set title sprintf("%s: bench%s", drive, partial) noenhanced
set ylabel "throughput (MB/s, 10^6 bytes/s)"
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set style fill solid 0.8 border -1
set boxwidth 0.6
set key off
set datafile separator "\t"
label(s) = s eq "seq_read" ? "sequential read" : s eq "seq_write" ? "sequential write" : \
           s eq "rand_read" ? "random read" : s eq "rand_write" ? "random write" : s
plot DATA using 0:2:xtic(label(strcol(1))) with boxes lc rgb "#1f77b4", \
     DATA using 0:2:(sprintf("%.2f MB/s\n%.0f IOPS", $2, $3)) with labels offset 0,1.5 font ",9"
