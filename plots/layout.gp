# The layout probe: bytes per track at each position measured (the zones),
# from the outer tracks at the start of the device to the inner ones.
#   gnuplot -c plots/layout.gp DATA.tsv OUT.png|OUT.svg
if (ARGC < 2) { print "usage: gnuplot -c layout.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
DIR = system(sprintf("dirname '%s'", ARG0))
load DIR . "/common.gp"

U = real(hdr("unit_bytes"))
set title sprintf("%s: bytes per track by position (%s sectors per track at the walk)%s", drive, hdr("main_sectors_per_track"), partial) noenhanced
set xlabel "position (GB, 10^9 bytes)"
set ylabel "bytes per track (KiB)"
set yrange [0:*]
eval pad("x", 3, 1e-9, 0)
set datafile separator "\t"
plot DATA using ($4 eq "loc" && $2 > 0 ? $3/1e9 : 1/0):($2*U/1024) with points pt 7 ps 0.6 lc rgb "#1f77b4" title "sectors per track x sector"
