# Response time against |seek distance| over the whole stroke, with the
# per-distance median and p99: a steady drive has p99 close to the median.
#   gnuplot -c plots/response.gp DATA.tsv OUT.png|OUT.svg
if (ARGC < 2) { print "usage: gnuplot -c response.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
DIR = system(sprintf("dirname '%s'", ARG0))
load DIR . "/common.gp"

samples = hdr("samples")
set title sprintf("%s: response time by seek distance, %s samples%s", drive, samples, partial) noenhanced
set xlabel "|seek distance| (MB, 10^6 bytes; log scale)"
set ylabel "response time (ms)"
set logscale x
set yrange [0:*]
eval pad("x", 1, 1e-6, 1)
set datafile separator "\t"
pct(op) = sprintf("< awk -F'\t' -v key=1 -v val=3 -v absolute=1 -v op=%s -f '%s/pctl.awk' '%s' | sort -g", op, DIR, DATA)
has_write = system(sprintf("grep -c '\twrite\t' '%s' || true", DATA)) + 0 > 0
sel(op, sgn) = (strcol(4) eq op && strcol(5) ne "error" && $1 * sgn > 0) ? $3 : 1/0
ad(x) = abs(x) / 1e6
R = 'DATA using (ad($1)):(sel("read", 1)) with points pt 7 ps 0.3 lc rgb "#1f77b4" title "read, outward (+)", ' . \
    'DATA using (ad($1)):(sel("read", -1)) with points pt 7 ps 0.3 lc rgb "#17becf" title "read, inward (-)", ' . \
    'pct("read") using ($1/1e6):3 with lines lw 2 lc rgb "#000000" title "read median", ' . \
    'pct("read") using ($1/1e6):5 with lines lw 2 dt 2 lc rgb "#000000" title "read p99"'
W = ', DATA using (ad($1)):(sel("write", 1)) with points pt 7 ps 0.3 lc rgb "#d62728" title "write, outward (+)", ' . \
    'DATA using (ad($1)):(sel("write", -1)) with points pt 7 ps 0.3 lc rgb "#ff9896" title "write, inward (-)", ' . \
    'pct("write") using ($1/1e6):3 with lines lw 2 lc rgb "#8c0000" title "write median", ' . \
    'pct("write") using ($1/1e6):5 with lines lw 2 dt 2 lc rgb "#8c0000" title "write p99"'
eval "plot " . R . (has_write ? W : "")
