# Write-interval delay: the second write's latency against the idle gap before it.
#   gnuplot -c plots/interval.gp interval.tsv OUT.png|OUT.svg
# With the write cache off the points form a sawtooth whose period is one revolution;
# with it on, writes the cache took lie flat near the bottom (class "cache").
if (ARGC < 2) { print "usage: gnuplot -c interval.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
load sprintf("%s/common.gp", system(sprintf("dirname '%s'", ARG0)))

samples = hdr("samples")
set title sprintf("%s: write latency after an idle interval, %s samples%s", drive, samples, partial) noenhanced
set xlabel "idle interval between the two writes, measured (ms)"
set ylabel "latency of the second write (ms)"
set yrange [0:*]
eval pad("x", 2, 1, 0)
set datafile separator "\t"
set datafile commentschars "#"
cls(c) = strcol(4) eq c
plot DATA using 2:(cls("media") ? $3 : 1/0) with points pt 7 ps 0.4 lc rgb "#1f77b4" title "media", \
     DATA using 2:(cls("cache") ? $3 : 1/0) with points pt 7 ps 0.4 lc rgb "#ff7f0e" title "write cache", \
     DATA using 2:(cls("error") ? $3 : 1/0) with points pt 2 ps 0.8 lc rgb "#d62728" title "error"
