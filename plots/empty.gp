# A data file without a single row (a run stopped before its first sample):
# a chart that says so, titled like the others.
#   gnuplot -c plots/empty.gp DATA.tsv OUT.png|OUT.svg
if (ARGC < 2) { print "usage: gnuplot -c empty.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
DIR = dirof(ARG0, "") . "."
load DIR . "/common.gp"

set title sprintf("%s: %s%s", drive, hdr("test"), partial) noenhanced
unset key
unset tics
unset border
set xrange [0:1]
set yrange [0:1]
set label 1 "no samples in this file" at 0.5, 0.55 center font ",16"
set label 2 (complete eq "yes" ? "the run asked for none" : "the run stopped before its first sample") at 0.5, 0.42 center
plot NaN
