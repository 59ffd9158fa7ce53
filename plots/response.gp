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
DIR = system(sprintf("dirname '%s'", ARG0))
load DIR . "/common.gp"
load DIR . "/axis.gp"

samples = hdr("samples")
set title sprintf("%s: response time by seek distance, %s samples%s", drive, samples, partial) noenhanced
set ylabel "response time (ms)"
set key outside below horizontal noenhanced
set datafile separator "\t"
set datafile commentschars "#"
if (!exists("XLO")) { xr = colrange(1, 0); XLO = real(word(xr, 1)); XHI = real(word(xr, 2)) }
eval dist_axis(XLO, XHI, 880, "seek distance, - inward, + outward")
dens = exists("DENS")
if (dens) { set yrange [0 : YHI * 1.04] } else { set yrange [0:*] }
if (!exists("GRIDCACHE")) { GRIDCACHE = 0 }
n_cache = nclass("cache"); n_unknown = nclass("unknown"); n_error = nclass("error")
has(op) = int(real(system(sprintf("grep -c -m 1 -e '\t%s\t' '%s' || true", op, DATA)))) > 0
has_read = has("read")
has_write = has("write")

if (exists("PCTL")) {
    pct(op) = sprintf("< awk -F'\t' '/^$/ || $9 == \"%s\"' '%s'", op, PCTL)
} else {
    pct(op) = sprintf("< awk -F'\t' -v key=1 -v val=3 -v media=1 -v op=%s -f '%s/pctl.awk' '%s' | sort -g | awk '$1 >= 0 && p < 0 { print x } { print; p = $1 }'", op, DIR, DATA)
}
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
if (n_cache > 0 && !(dens && GRIDCACHE)) { P = add("rows('cache') using (xd($1)):3 with points pt 6 ps 0.5 lc rgb '#ff7f0e' title 'cache hit'") }
if (n_error > 0) { P = add("rows('error') using (xd($1)):3 with points pt 2 ps 0.8 lc rgb '#8c564b' title 'error'") }
if (has_read) {
    P = add("pct('read') using (xd($1)):3 with lines lw 2 lc rgb '#000000' title 'read median (media)'")
    P = add("pct('read') using (xd($1)):5 with lines lw 2 dt 2 lc rgb '#000000' title 'read p99'")
}
if (has_write) {
    P = add("pct('write') using (xd($1)):3 with lines lw 2.5 dt 4 lc rgb '#8c0000' title 'write median (media)'")
    P = add("pct('write') using (xd($1)):5 with lines lw 2.5 dt (1, 2) lc rgb '#8c0000' title 'write p99'")
}
if (P eq "") { P = "NaN notitle" }
eval "plot " . P
