# Shared by the compare-*.gp scripts: two profiles' data files on one chart.
#   gnuplot -c plots/compare-TEST.gp A.tsv B.tsv OUT.png|OUT.svg side|overlay [BINS.tsv]
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
DIR = system(sprintf("dirname '%s'", ARG0))
# common.gp names the drive of DATA: once for B, then for A, which stays DATA.
DATA = FB
load DIR . "/common.gp"
nameB = drive
DATA = FA
load DIR . "/common.gp"
nameA = drive
side = (MODE eq "side")
if (side) {
    if (is_svg) {
        set terminal svg size 1500,620 dynamic enhanced font "sans,12" background "white"
    } else {
        set terminal pngcairo size 1500,620 enhanced font "sans,10"
    }
    set output OUT
}
set datafile separator "\t"
set datafile commentschars "#"
set key noenhanced
colA = "#1f77b4"
colB = "#ff7f0e"
both_ranges(u) = sprintf("stats FA using %s nooutput; XLO = STATS_min_x; XHI = STATS_max_x; YLO = STATS_min_y; YHI = STATS_max_y; " . \
    "stats FB using %s nooutput; XLO = (STATS_min_x < XLO) ? STATS_min_x : XLO; XHI = (STATS_max_x > XHI) ? STATS_max_x : XHI; " . \
    "YLO = (STATS_min_y < YLO) ? STATS_min_y : YLO; YHI = (STATS_max_y > YHI) ? STATS_max_y : YHI", u, u)
draw = 'if (side) { set multiplot layout 1,2 title WHAT noenhanced; set title "A: " . nameA noenhanced; ' . \
       'eval "plot " . P(FA, colA, "A"); set title "B: " . nameB noenhanced; eval "plot " . P(FB, colB, "B"); unset multiplot } ' . \
       'else { set title WHAT . "\nA: " . nameA . "   B: " . nameB noenhanced; eval "plot " . P(FA, colA, "A") . ", " . P(FB, colB, "B") }'
