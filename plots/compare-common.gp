# Shared by the compare-*.gp scripts: two profiles' data files on one chart.
#   gnuplot -c plots/compare-TEST.gp A.tsv B.tsv OUT.png|OUT.svg side|overlay [BINS.tsv] ["C.tsv D.tsv ..."]
# (the third and later drives, C on, are one word list; each gets a panel and a colour of its own).
# "side" draws two panels with identical axes, each titled with its drive's model, as
# drive reviews print them; "overlay" draws both drives on one chart (A blue, B orange).
# Each script calls this one with its arguments (call, since load would hide them),
# defines P(F, col, name), the plot clauses of one drive, and runs
#   eval both_ranges("USING")   the union of both files' ranges: XLO XHI YLO YHI
#   eval draw                    the chart in MODE
if (ARGC < 4 || ARG4 eq "") { print "usage: gnuplot -c compare-TEST.gp A.tsv B.tsv OUT side|overlay [BINS.tsv]"; exit status 1 }
FA = ARG1
FB = ARG2
OUT = ARG3
MODE = ARG4
BINS = ARG5
# This script's folder, found without a shell: "." where ARG0 names none.
dirof(s, a) = strstrt(s, "/") ? dirof(s[strstrt(s, "/") + 1:], a . s[1:strstrt(s, "/")]) : a
DIR = dirof(ARG0, "") . "."
# common.gp names the drive of DATA: once for B, then for A, which stays DATA.
DATA = FB
load DIR . "/common.gp"
nameB = drive
DATA = FA
load DIR . "/common.gp"
nameA = drive
MORE = (ARGC >= 6) ? ARG6 : ""
NMORE = words(MORE)
colsMore = "#2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f"
# Named as common.gp names A and B, "(simulated)" included.
do for [k = 1:NMORE] { DATA = word(MORE, k); dm = hdr("model"); if (dm eq "" || dm eq "unknown") { dm = hdr("device") }; \
    if (hdr("device")[1:4] eq "sim:" || hdr("device_kind") eq "simulated drive") { dm = dm . " (simulated)" }; eval sprintf("nameM%d = dm", k) }
DATA = FA
mw(k) = substr("CDEFGH", k, k)
side = (MODE eq "side")
SIDE_W = NMORE ? 500 * (2 + NMORE) : 1500
if (side) {
    if (is_svg) {
        set terminal svg size SIDE_W,620 dynamic enhanced font "sans,12" background "white"
    } else {
        set terminal pngcairo size SIDE_W,620 enhanced font "sans,10"
    }
    set output OUT
}
set datafile separator "\t"
set datafile commentschars "#"
set key noenhanced
# A panel's width in pixels, for the distance tics (axis.gp), where the
# script puts the key below the panels (set key outside below).
PANEL_PX = side ? SIDE_W / (2 + NMORE) - 90 : 700
colA = "#1f77b4"
colB = "#ff7f0e"
both_ranges(u) = sprintf("stats FA using %s nooutput; XLO = STATS_min_x; XHI = STATS_max_x; YLO = STATS_min_y; YHI = STATS_max_y; " . \
    "stats FB using %s nooutput; XLO = (STATS_min_x < XLO) ? STATS_min_x : XLO; XHI = (STATS_max_x > XHI) ? STATS_max_x : XHI; " . \
    "YLO = (STATS_min_y < YLO) ? STATS_min_y : YLO; YHI = (STATS_max_y > YHI) ? STATS_max_y : YHI; " . \
    "do for [k = 1:NMORE] { stats word(MORE, k) using %s nooutput; XLO = (STATS_min_x < XLO) ? STATS_min_x : XLO; XHI = (STATS_max_x > XHI) ? STATS_max_x : XHI; " . \
    "YLO = (STATS_min_y < YLO) ? STATS_min_y : YLO; YHI = (STATS_max_y > YHI) ? STATS_max_y : YHI }", u, u, u)
# The plot clauses and names of the drives from C on: PM(k) the k-th of them, NM the names.
PM(k) = P(word(MORE, k), word(colsMore, k), mw(k))
NM = ""
do for [k = 1:NMORE] { NM = NM . "   " . mw(k) . ": " . value(sprintf("nameM%d", k)) }
draw = 'if (side) { set multiplot layout 1,2 + NMORE title WHAT noenhanced; set title "A: " . nameA noenhanced; ' . \
       'eval "plot " . P(FA, colA, "A"); set title "B: " . nameB noenhanced; eval "plot " . P(FB, colB, "B"); ' . \
       'do for [k = 1:NMORE] { set title mw(k) . ": " . value(sprintf("nameM%d", k)) noenhanced; eval "plot " . PM(k) }; unset multiplot } ' . \
       'else { set title WHAT . "\nA: " . nameA . "   B: " . nameB . NM noenhanced; PL = P(FA, colA, "A") . ", " . P(FB, colB, "B"); ' . \
       'do for [k = 1:NMORE] { PL = PL . ", " . PM(k) }; eval "plot " . PL }'
