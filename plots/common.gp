# Shared by every hddscope chart script: header fields and the terminal.
# Call with: load plots/common.gp after setting DATA and OUT.
#   hdr(key)  the value of a "# key: value" header line of DATA ("" when absent)
#   drive     the model (else the device), "(simulated)" after it for a sim: device
# The header is read once a file (one sed, which stops at the columns line: a
# data file can hold millions of rows), not once a field: a chart asks for a
# dozen, and each shell and sed cost as much as drawing.  HDR_ALL holds the
# "key: value" lines of the file HDR_FOR, each after a newline.
if (!exists("HDR_FOR")) { HDR_FOR = ""; HDR_ALL = "" }
hdr_load(d) = (HDR_FOR eq d) ? HDR_ALL : (HDR_FOR = d, HDR_ALL = "\n" . system(sprintf("sed -n -e '/^# columns:/q' -e 's/^# //p' '%s'", d)) . "\n")
hdr_line(s) = substr(s, 1, strstrt(s, "\n") - 1)
hdr_pick(all, key) = (hdr_i = strstrt(all, "\n" . key . ": ")) > 0 ? hdr_line(substr(all, hdr_i + strlen(key) + 3, strlen(all))) : ""
hdr(key) = hdr_pick(hdr_load(DATA), key)
is_svg = (strlen(OUT) > 4 && OUT[strlen(OUT)-2:] eq "svg")
if (is_svg) {
    set terminal svg size 1000,640 dynamic enhanced font "sans,12" background "white"
} else {
    set terminal pngcairo size 1000,640 enhanced font "sans,10"
}
set output OUT
drive = hdr("model")
if (drive eq "" || drive eq "unknown") { drive = hdr("device") }
# A simulated drive carries a real drive's model name: every title says so.
simulated = (hdr("device")[1:4] eq "sim:" || hdr("device_kind") eq "simulated drive")
if (simulated) { drive = drive . " (simulated)" }
complete = hdr("complete")
partial = (complete eq "yes") ? "" : " (incomplete run)"
set grid lc rgb "#dddddd"
set key outside right top

# A chart of one row, or of rows that all share a value (a run cut short),
# has an empty range on that axis: gnuplot would pick one itself and warn
# on stderr.  pad(axis, column, scale, log) sets a range around the value
# first: ten percent either side (or one unit around zero), or half and
# double it on a log axis.  The column's absolute value counts where the
# axis shows magnitudes (log axes of signed distances).
#   ncol(col, v) the rows whose column col is v (the key lists only what a chart has)
ncol(col, v) = int(real(system(sprintf("awk -F'\t' '!/^#/ && $%d == \"%s\" { n++ } END { print n + 0 }' '%s'", col, v, DATA))))
colrange(col, useabs) = system(sprintf("awk -F'\t' '!/^#/ && $%d != \"\" { v = $%d + 0; if (%d && v < 0) v = -v; if (!n++ || v < lo) lo = v; if (n == 1 || v > hi) hi = v } END { if (n) print lo, hi }' '%s'", col, col, useabs, DATA))
# For each word of the space-separated list (fields joined by ":"), whether
# a row holds those fields in a row: one 0 or 1 a word, from one pass.
holds(list) = system(sprintf("awk -v l='%s' 'BEGIN { n = split(l, p, \" \"); for (i = 1; i <= n; i++) gsub(\":\", \"\\t\", p[i]) } !/^#/ { for (i = 1; i <= n; i++) if (!f[i] && index(\"\\t\" $0 \"\\t\", \"\\t\" p[i] \"\\t\")) f[i] = 1 } END { for (i = 1; i <= n; i++) printf \"%%d \", f[i] + 0 }' '%s'", list, DATA))
pad(ax, col, scale, log) = sprintf("pad_r = colrange(%d, %d); if (words(pad_r) == 2 && word(pad_r, 1) eq word(pad_r, 2)) { pad_v = real(word(pad_r, 1)) * %.17g; set %srange [%s] }", col, log, scale, ax, log ? "pad_v / 2 : pad_v * 2" : "pad_v - (pad_v == 0 ? 1 : abs(pad_v) / 10) : pad_v + (pad_v == 0 ? 1 : abs(pad_v) / 10)")
