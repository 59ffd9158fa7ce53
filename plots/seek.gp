# Seek scatter: latency against signed distance from the reference.
#   gnuplot -c plots/seek.gp DATA.tsv OUT.png|OUT.svg
# Media, cache and unknown samples get different colours; errors are marked at the top.
if (ARGC < 2) { print "usage: gnuplot -c seek.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
load sprintf("%s/common.gp", system(sprintf("dirname '%s'", ARG0)))

samples = hdr("samples")
op = system(sprintf("sed -n -e '/^# columns:/q' -e 's/^# params: op=\\([a-z]*\\).*/\\1/p' '%s' | head -n 1", DATA))
thr = hdr("cache_threshold_ms")
set title sprintf("%s: %s seek, %s samples%s", drive, op, samples, partial) noenhanced
set xlabel "signed distance from reference (MB, 10^6 bytes)"
set ylabel "latency (ms)"
set yrange [0:*]
eval pad("x", 1, 1e-6, 0)
set datafile separator "\t"
set datafile commentschars "#"
# A seek file can hold millions of rows, so the data is read once for media
# and cache samples (colour by class) rather than once per class, which kept
# a copy of every point per class.  Errors, few, come from a filtered copy
# drawn last, on top, only where the header counts some (gnuplot warns about
# an empty one).  Small filled squares draw several times faster than
# circles and look the same at this size.  The titled NaN lines are the key.
colour(c) = c eq "cache" ? 0xff7f0e : c eq "unknown" ? 0x7f7f7f : 0x1f77b4
errors = sprintf("< grep -e '\terror\t' '%s'", DATA)
samples = 'DATA using ($1/1e6):(strcol(5) eq "error" ? 1/0 : $3):(colour(strcol(5))) with points pt 5 ps 0.3 lc rgb variable notitle'
key = 'NaN with points pt 5 ps 0.3 lc rgb "#1f77b4" title "media", NaN with points pt 5 ps 0.3 lc rgb "#ff7f0e" title "cache hit", NaN with points pt 5 ps 0.3 lc rgb "#7f7f7f" title "unknown", NaN with points pt 2 ps 0.8 lc rgb "#d62728" title "error"'
if (hdr("samples_error") eq "0") {
    plot @samples, @key
} else {
    plot @samples, errors using ($1/1e6):3 with points pt 2 ps 0.8 lc rgb "#d62728" notitle, @key
}
