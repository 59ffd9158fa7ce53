# Seek scatter: latency against signed distance from the reference, with the
# per-bin median and p99 of the media samples over it.
#   gnuplot -c plots/seek.gp DATA.tsv OUT.png|OUT.svg
# Variables hddscope plot sets (gnuplot -e) and what they default to here:
#   AXIS   "symlog" or "linear" distance axis (plots/axis.gp)      symlog
#   PCTL   its per-bin percentiles (x_bytes n p50 p90 p99 ... op)  plots/pctl.awk, 4 bins a decade
#   DENS   a density grid (x y count): drawn instead of the points none
#   XLO XHI YHI  the distances' range (bytes), the largest latency read from DATA
# Media, cache, unknown and error samples differ in mark as well as colour;
# the key lists only the classes the file has.
if (ARGC < 2) { print "usage: gnuplot -c seek.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
DIR = dirof(ARG0, "") . "."
load DIR . "/common.gp"
load DIR . "/axis.gp"

samples = hdr("samples")
# The op from the params header ("op=read ..."), read with the rest of the header.
op = hdr("params"); op = (op[1:3] eq "op=") ? op[4:strstrt(op . " ", " ") - 1] : ""
set title sprintf("%s: %s seek, %s samples%s", drive, op, samples, partial) noenhanced
set ylabel "latency (ms)"
set key outside below horizontal noenhanced
set datafile separator "\t"
set datafile commentschars "#"
if (!exists("XLO")) { xr = colrange(1, 0); XLO = real(word(xr, 1)); XHI = real(word(xr, 2)) }
XLO = real(XLO); XHI = real(XHI)
if (exists("YHI")) { YHI = real(YHI) }
eval dist_axis(XLO, XHI, 880, "signed distance from reference")
# Which classes the rows hold (the header's counts are the run's: a file cut
# down by hand may hold fewer).
HOLDS = holds("media cache unknown error")
n_media = int(word(HOLDS, 1)); n_cache = int(word(HOLDS, 2)); n_unknown = int(word(HOLDS, 3)); n_error = int(word(HOLDS, 4))
dens = exists("DENS")
if (dens) { set yrange [0 : YHI * 1.04] } else { set yrange [0:*] }
if (!exists("GRIDCACHE")) { GRIDCACHE = 0 }

if (exists("PCTL")) {
    pct = sprintf("< awk -F'\t' '/^$/ || $9 == \"%s\"' '%s'", op, PCTL)
} else {
    pct = sprintf("< awk -F'\t' -v key=1 -v val=3 -v media=1 -v symc=%.17g -v bpd=4 -f '%s/pctl.awk' '%s' | sort -g | awk '$1 >= 0 && p < 0 { print x } { print; p = $1 }'", SYMC, DIR, DATA)
}
# The lines it has: "bins p99s", so that an empty line set draws nothing rather than a warning.
nlines(src) = system(sprintf("%s | awk -F'\t' 'NF > 4 { n++; if ($5 != \"NaN\") m++ } END { print n + 0, m + 0 }'", src[3:]))
pn = nlines(pct)
rows(c) = sprintf("< grep -e '\t%s\t' '%s'", c, DATA)
cls(c) = strcol(5) eq c ? $3 : 1/0
P = ""
add(s) = (P eq "" ? s : P . ", " . s)
if (dens) {
    set palette defined (0 "#fde0c5", 1 "#f59e72", 2 "#d1495b", 3 "#5c1a57")
    set logscale cb
    set cblabel "samples per cell (log scale)"
    P = add(sprintf("'%s' using 1:2:3 with image notitle", DENS))
    P = add(sprintf("NaN with boxes fs solid lc rgb '#d1495b' title '%s'", \
        GRIDCACHE ? "density of the samples" : (n_unknown > 0 ? "density of media and unknown samples" : "density of media samples")))
    if (!GRIDCACHE && n_cache > 0) { P = add("rows('cache') using (xd($1)):3 with points pt 6 ps 0.5 lc rgb '#ff7f0e' title 'cache hit'") }
} else {
    if (n_media > 0) { P = add("DATA using (xd($1)):(cls('media')) with points pt 7 ps 0.3 lc rgb '#1f77b4' title 'media'") }
    if (n_cache > 0) { P = add("DATA using (xd($1)):(cls('cache')) with points pt 6 ps 0.5 lc rgb '#ff7f0e' title 'cache hit'") }
    if (n_unknown > 0) { P = add("DATA using (xd($1)):(cls('unknown')) with points pt 1 ps 0.6 lc rgb '#7f7f7f' title 'unknown'") }
}
if (n_error > 0) { P = add("rows('error') using (xd($1)):3 with points pt 2 ps 0.8 lc rgb '#d62728' title 'error'") }
if (int(word(pn, 1)) > 0) { P = add("pct using (xd($1)):3 with lines lw 2 lc rgb '#000000' title 'median of media samples per bin'") }
if (int(word(pn, 2)) > 0) { P = add("pct using (xd($1)):5 with lines lw 2 dt 2 lc rgb '#000000' title 'p99'") }
if (P eq "") { P = "NaN notitle" }
eval "plot " . P
