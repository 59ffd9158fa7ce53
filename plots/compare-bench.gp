# Two drives' bench figures (compare-common.gp): MB/s of each test as bars; the
# overlay puts each test's two bars next to each other.
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
call dirof(ARG0, "") . "./compare-common.gp" ARG1 ARG2 ARG3 ARG4 ARG5 ARG6
WHAT = "bench: throughput (MB/s, 10^6 bytes/s)"
set ylabel "throughput (MB/s)"
# One column at a time: stats of two columns fits a line, and a bench of two
# rows (a quick profile's) makes it warn that the fit has no error.
XHI = 0; YHI = 0
bench_range = 'stats bf using 2 nooutput; XHI = (STATS_records - 1 > XHI) ? STATS_records - 1 : XHI; YHI = (STATS_max > YHI) ? STATS_max : YHI'
bf = FA; eval bench_range
bf = FB; eval bench_range
do for [k = 1:NMORE] { bf = word(MORE, k); eval bench_range }
set xrange [-0.6:XHI + 0.6]
set yrange [0:YHI * 1.2]
set style fill solid 0.8 border -1
# Three or more panels side by side are too narrow for the long names.
short = side && NMORE > 0
label(s) = short ? (s eq "seq_read" ? "seq read" : s eq "seq_write" ? "seq write" : \
           s eq "rand_read" ? "4K read" : s eq "rand_write" ? "4K write" : s) : \
           (s eq "seq_read" ? "sequential read" : s eq "seq_write" ? "sequential write" : \
           s eq "rand_read" ? "random read" : s eq "rand_write" ? "random write" : s)
shift(w) = side ? 0 : (strstrt("ABCDEFGH", w) - 1 - (NMORE + 1) / 2.0) * 0.8 / (NMORE + 2)
set boxwidth (side ? 0.6 : 0.76 / (NMORE + 2))
# One tic label a test, under the middle of its bars: the overlay's other
# drives' bars carry none, or each label would be written once a drive.
tics(F, w) = (side || w eq "A") ? sprintf("'%s' using 0:(NaN):xtic(label(strcol(1))) notitle, ", F) : ""
# Joined with ".", not one sprintf: gnuplot cuts a long sprintf result short
# (the long paths of a temporary directory did, in the middle of a clause).
P(F, c, w) = tics(F, w) . "'" . F . "' using ($0 + " . sprintf("%g", shift(w)) . "):2 with boxes lc rgb '" . c . "' title '" . w . "', '" . F . "' using ($0 + " . sprintf("%g", shift(w)) . "):2:(sprintf(\"%.2f\", $2)) with labels offset 0,0.8 font ',8' notitle"
eval draw
