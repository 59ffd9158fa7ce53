# The layout probe: bytes per track at each position measured (the zones),
# from the outer tracks at the start of the device to the inner ones.
#   gnuplot -c plots/layout.gp DATA.tsv OUT.png|OUT.svg
if (ARGC < 2) { print "usage: gnuplot -c layout.gp DATA.tsv OUT.png"; exit status 1 }
DATA = ARG1
OUT = ARG2
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
DIR = dirof(ARG0, "") . "."
load DIR . "/common.gp"

U = real(hdr("unit_bytes"))
set title sprintf("%s: bytes per track by position (%s sectors per track at the walk)%s", drive, hdr("main_sectors_per_track"), partial) noenhanced
set xlabel "position (GB, 10^9 bytes)"
set ylabel "bytes per track (KiB)"
set y2label "latency of each access (ms)"
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics
eval pad("x", 3, 1e-9, 0)
set datafile separator "\t"
# The positions' sectors per track (the zones); behind them every access's latency.
stats DATA using (strcol(4) eq "loc" && $2 > 0 ? 1 : 0) nooutput
if (STATS_sum > 0) {
	plot DATA using ($3/1e9):8 axes x1y2 with points pt 7 ps 0.2 lc rgb "#c0c0c0" title "access latency", \
	     DATA using (strcol(4) eq "loc" && $2 > 0 ? $3/1e9 : 1/0):($2*U/1024) with points pt 7 ps 0.6 \
		lc rgb "#1f77b4" title "bytes per track"
} else {
	set yrange [0:1]
	unset ytics
	plot DATA using ($3/1e9):8 axes x1y2 with points pt 7 ps 0.2 lc rgb "#c0c0c0" title "access latency"
}
