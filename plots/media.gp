# Media read time by transfer size, each read coloured by its distance from
# the central reference, with the per-size median.
#   gnuplot -c plots/media.gp DATA.tsv OUT.png|OUT.svg
if (ARGC < 2) { print "usage: gnuplot -c media.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
DIR = dirof(ARG0, "") . "."
load DIR . "/common.gp"

set title sprintf("%s: media read time by transfer size, %s samples%s", drive, hdr("samples"), partial) noenhanced
set xlabel "transfer size (KiB; log scale)"
set ylabel "latency (ms)"
set cblabel "|distance from the reference| (MB)"
set logscale x 2
set logscale y
eval pad("x", 1, 1.0 / 1024, 1)
eval pad("y", 3, 1, 1)
eval pad("cb", 2, 1e-6, 1)
set palette defined (0 "#2166ac", 1 "#67a9cf", 2 "#fddbc7", 3 "#b2182b")
set datafile separator "\t"
med = sprintf("< awk -F'\t' -v key=1 -v val=3 -v clscol=4 -f '%s/pctl.awk' '%s' | sort -g", DIR, DATA)
# Spread each size's column a little so the points do not sit on one line.
jit(x) = x * (1 + 0.12 * (rand(0) - 0.5))
plot DATA using (jit($1/1024)):(strcol(4) ne "error" ? $3 : 1/0):(abs($2)/1e6) with points pt 7 ps 0.5 lc palette title "reads", \
     med using ($1/1024):3 with linespoints lw 2 pt 5 ps 0.7 lc rgb "#000000" title "median"
