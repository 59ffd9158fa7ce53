# Interval delay: the second access's latency against the idle gap before it.
#   gnuplot -c plots/interval.gp interval.tsv OUT.png|OUT.svg
# Writes (op: write, or no op header): with the write cache off the points form a
# sawtooth whose period is one revolution; with it on, writes the cache took lie
# flat near the bottom (class "cache").  Reads (op: read) of the block before the
# last one form the same sawtooth; the cache's hits lie at the bottom.
if (ARGC < 2) { print "usage: gnuplot -c interval.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
load dirof(ARG0, "") . "./common.gp"

samples = hdr("samples")
op = hdr("op")
if (op eq "") { op = "write" }
set title sprintf("%s: %s latency after an idle interval, %s samples%s", drive, op, samples, partial) noenhanced
set xlabel sprintf("idle interval between the two %ss, measured (ms)", op)
set ylabel sprintf("latency of the second %s (ms)", op)
cache_title = (op eq "read") ? "read cache" : "write cache"
set yrange [0:*]
eval pad("x", 2, 1, 0)
set datafile separator "\t"
set datafile commentschars "#"
cls(c) = strcol(4) eq c
# The key lists only the classes the file has; each has a mark of its own.
P = ""
add(s) = (P eq "" ? s : P . ", " . s)
if (ncol(4, "media") > 0) { P = add('DATA using 2:(cls("media") ? $3 : 1/0) with points pt 7 ps 0.4 lc rgb "#1f77b4" title "media"') }
if (ncol(4, "cache") > 0) { P = add('DATA using 2:(cls("cache") ? $3 : 1/0) with points pt 6 ps 0.6 lc rgb "#ff7f0e" title cache_title') }
if (ncol(4, "unknown") > 0) { P = add('DATA using 2:(cls("unknown") ? $3 : 1/0) with points pt 1 ps 0.6 lc rgb "#7f7f7f" title "unknown"') }
if (ncol(4, "error") > 0) { P = add('DATA using 2:(cls("error") ? $3 : 1/0) with points pt 2 ps 0.8 lc rgb "#d62728" title "error"') }
if (P eq "") { P = "NaN notitle" }
eval "plot " . P
