# The cache probe: left, read-ahead (a read after an idle wait at a distance past
# the one before: hits while inside the prefetched data); right, interleaved
# streams (hits while there are no more streams than read segments).
#   gnuplot -c plots/cache.gp DATA.tsv OUT.png|OUT.svg
if (ARGC < 2) { print "usage: gnuplot -c cache.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
DIR = dirof(ARG0, "") . "."
load DIR . "/common.gp"

# The rows of one phase and class ("cache" or anything else), chosen in the
# plot itself; the four counts come from one pass over the file.  A class
# without rows would leave gnuplot with no data: a point below the axes stands
# in, and a phase without rows at all gets an empty panel that says so.
COUNTS = system(sprintf("awk -F'\t' '!/^#/ { n[$1 \"\" ($7 == \"cache\")]++ } END { print n[\"ra0\"] + 0, n[\"ra1\"] + 0, n[\"seg0\"] + 0, n[\"seg1\"] + 0 }' '%s'", DATA))
count(p, hit) = int(word(COUNTS, (p eq "ra" ? 1 : 3) + hit))
is(p, hit) = strcol(1) eq p && ((strcol(7) eq "cache") == hit)
src(p, hit) = count(p, hit) == 0 ? sprintf("< printf '%s\\t1e-9\\t0\\t0\\t1e-9\\t\\t%s\\n'", p, hit ? "cache" : "none") : DATA
# The key names a class only where the panel has some of it.
ttl(p, hit, t) = count(p, hit) == 0 ? "" : t

set datafile separator "\t"
set multiplot layout 1,2 title sprintf("%s: cache, %s accesses%s", drive, hdr("samples"), partial) noenhanced
set key inside top left
set title "read-ahead: a read after an idle wait, d past the one before"
set xlabel "d + one block (KiB, log)"
set ylabel "latency (ms, log)"
set logscale xy
set xrange [1:*]
set yrange [0.01:*]
if (count("ra", 0) + count("ra", 1) == 0) {
    set label 1 "no read-ahead rows" at graph 0.5, graph 0.5 center
    set xrange [1:1024]
    set yrange [0.01:100]
    plot NaN notitle
    unset label 1
} else {
    plot src("ra", 0) using (is("ra", 0) ? ($2 + $4) / 1024 : NaN):5 with points pt 7 ps 0.5 lc rgb "#d62728" title ttl("ra", 0, "media"), \
         src("ra", 1) using (is("ra", 1) ? ($2 + $4) / 1024 : NaN):5 with points pt 6 ps 0.7 lc rgb "#1f77b4" title ttl("ra", 1, "cache hit")
}
unset logscale
set ylabel "latency (ms)"
set title "interleaved sequential streams"
set xlabel "streams read round-robin"
set xrange [0:*]
set yrange [0:*]
if (count("seg", 0) + count("seg", 1) == 0) {
    set label 1 "no stream rows" at graph 0.5, graph 0.5 center
    set xrange [0:10]
    set yrange [0:10]
    plot NaN notitle
} else {
    plot src("seg", 0) using (is("seg", 0) ? $2 : NaN):5 with points pt 7 ps 0.5 lc rgb "#d62728" title ttl("seg", 0, "media"), \
         src("seg", 1) using (is("seg", 1) ? $2 : NaN):5 with points pt 6 ps 0.7 lc rgb "#1f77b4" title ttl("seg", 1, "cache hit")
}
unset multiplot
