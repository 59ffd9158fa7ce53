# Seek scatter: latency against signed distance from the reference.
#   gnuplot -c plots/seek.gp DATA.tsv OUT.png|OUT.svg
# Media and cache samples get different colours; errors are marked at the top.
if (ARGC < 2) { print "usage: gnuplot -c seek.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
load sprintf("%s/common.gp", system(sprintf("dirname '%s'", ARG0)))

samples = hdr("samples")
op = system(sprintf("sed -n 's/^# params: op=\\([a-z]*\\).*/\\1/p' '%s' | head -n 1", DATA))
thr = hdr("cache_threshold_ms")
set title sprintf("%s: %s seek, %s samples%s", drive, op, samples, partial) noenhanced
set xlabel "signed distance from reference (MB, 10^6 bytes)"
set ylabel "latency (ms)"
set yrange [0:*]
set datafile separator "\t"
set datafile commentschars "#"
cls(c) = strcol(5) eq c
plot DATA using ($1/1e6):(cls("media") ? $3 : 1/0) with points pt 7 ps 0.35 lc rgb "#1f77b4" title "media", \
     DATA using ($1/1e6):(cls("cache") ? $3 : 1/0) with points pt 7 ps 0.35 lc rgb "#ff7f0e" title "cache hit", \
     DATA using ($1/1e6):(cls("error") ? $3 : 1/0) with points pt 2 ps 0.8 lc rgb "#d62728" title "error"
