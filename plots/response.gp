# Response time against signed seek distance (- inward, + outward) over the
# whole stroke, with the per-distance median and p99 of the media samples: a
# steady drive has p99 close to the median.
#   gnuplot -c plots/response.gp DATA.tsv OUT.png|OUT.svg
# Variables hddscope plot sets (gnuplot -e), as in plots/seek.gp: AXIS, PCTL,
# DENS, XLO, XHI, YHI.  Reads and writes differ in mark and dash as well as
# colour; the key lists only the ops and classes the file has.
if (ARGC < 2) { print "usage: gnuplot -c response.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
DIR = dirof(ARG0, "") . "."
load DIR . "/common.gp"
load DIR . "/axis.gp"

samples = hdr("samples")
set title sprintf("%s: response time by seek distance, %s samples%s", drive, samples, partial) noenhanced
set ylabel "response time (ms)"
set key outside below horizontal noenhanced
set datafile separator "\t"
set datafile commentschars "#"
if (!exists("XLO")) { xr = colrange(1, 0); XLO = real(word(xr, 1)); XHI = real(word(xr, 2)) }
XLO = real(XLO); XHI = real(XHI)
if (exists("YHI")) { YHI = real(YHI) }
eval dist_axis(XLO, XHI, 880, "seek distance, - inward, + outward")
dens = exists("DENS")
if (dens) { set yrange [0 : YHI * 1.04] } else { set yrange [0:*] }
if (!exists("GRIDCACHE")) { GRIDCACHE = 0 }
# Which ops and classes the rows hold (the header's counts are the run's: a
# file cut down by hand may hold fewer).
HOLDS = holds("unknown error read:cache write:cache read:media write:media")
n_unknown = int(word(HOLDS, 1)); n_error = int(word(HOLDS, 2))
rcache = int(word(HOLDS, 3)); wcache = int(word(HOLDS, 4))
has_read = int(word(HOLDS, 5))
has_write = int(word(HOLDS, 6))

if (exists("PCTL")) {
    pct(op) = sprintf("< awk -F'\t' '/^$/ || $9 == \"%s\"' '%s'", op, PCTL)
} else {
    pct(op) = sprintf("< awk -F'\t' -v key=1 -v val=3 -v media=1 -v op=%s -f '%s/pctl.awk' '%s' | sort -g | awk '$1 >= 0 && p < 0 { print x } { print; p = $1 }'", op, DIR, DATA)
}
# The lines of an op: "bins p99s", so that an empty line set draws nothing rather than a warning.
nlines(src) = system(sprintf("%s | awk -F'\t' 'NF > 4 { n++; if ($5 != \"NaN\") m++ } END { print n + 0, m + 0 }'", src[3:]))
pr = has_read ? nlines(pct("read")) : "0 0"
pw = has_write ? nlines(pct("write")) : "0 0"
rows(c) = sprintf("< grep -e '\t%s\t' '%s'", c, DATA)
sel(op, c) = (strcol(4) eq op && strcol(5) eq c) ? $3 : 1/0
P = ""
add(s) = (P eq "" ? s : P . ", " . s)
if (dens) {
    set palette defined (0 "#fde0c5", 1 "#f59e72", 2 "#d1495b", 3 "#5c1a57")
    set logscale cb
    set cblabel "samples per cell (log scale)"
    P = add(sprintf("'%s' using 1:2:3 with image notitle", DENS))
    P = add("NaN with boxes fs solid lc rgb '#d1495b' title 'density of the samples'")
} else {
    # Writes first: a profile takes more of them, and the reads stay visible on top.
    if (has_write) { P = add("DATA using (xd($1)):(sel('write', 'media')) with points pt 8 ps 0.5 lc rgb '#e377c2' title 'write'") }
    if (has_read) { P = add("DATA using (xd($1)):(sel('read', 'media')) with points pt 7 ps 0.35 lc rgb '#1f77b4' title 'read'") }
    if (n_unknown > 0) { P = add("DATA using (xd($1)):(strcol(5) eq 'unknown' ? $3 : 1/0) with points pt 1 ps 0.6 lc rgb '#7f7f7f' title 'unknown'") }
}
# Cache hits by op: reads open circles, writes open squares.
oprows(op, c) = sprintf("< grep -e '\t%s\t%s\t' '%s'", op, c, DATA)
if (rcache && !(dens && GRIDCACHE)) { P = add("oprows('read', 'cache') using (xd($1)):3 with points pt 6 ps 0.5 lc rgb '#ff7f0e' title 'read, cache hit'") }
if (wcache && !(dens && GRIDCACHE)) { P = add("oprows('write', 'cache') using (xd($1)):3 with points pt 4 ps 0.5 lc rgb '#bcbd22' title 'write, cache hit'") }
if (n_error > 0) { P = add("rows('error') using (xd($1)):3 with points pt 2 ps 0.8 lc rgb '#8c564b' title 'error'") }
if (int(word(pr, 1)) > 0) { P = add("pct('read') using (xd($1)):3 with lines lw 2 lc rgb '#000000' title 'read median (media)'") }
if (int(word(pr, 2)) > 0) { P = add("pct('read') using (xd($1)):5 with lines lw 2 dt 2 lc rgb '#000000' title 'read p99'") }
if (int(word(pw, 1)) > 0) { P = add("pct('write') using (xd($1)):3 with lines lw 2.5 dt 4 lc rgb '#8c0000' title 'write median (media)'") }
if (int(word(pw, 2)) > 0) { P = add("pct('write') using (xd($1)):5 with lines lw 2.5 dt (1, 2) lc rgb '#8c0000' title 'write p99'") }
if (P eq "") { P = "NaN notitle" }
eval "plot " . P
