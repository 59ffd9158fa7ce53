# Shared by every hddscope chart script: header fields and the terminal.
# Call with: load plots/common.gp after setting DATA and OUT.
#   hdr(key)  the value of a "# key: value" header line of DATA ("" when absent)
# sed stops at the columns line: the header is all it needs, and a data file
# can hold millions of rows.
hdr(key) = system(sprintf("sed -n -e '/^# columns:/q' -e 's/^# %s: //p' '%s' | head -n 1", key, DATA))
is_svg = (strlen(OUT) > 4 && OUT[strlen(OUT)-2:] eq "svg")
if (is_svg) {
    set terminal svg size 1000,640 dynamic enhanced font "sans,12" background "white"
} else {
    set terminal pngcairo size 1000,640 enhanced font "sans,10"
}
set output OUT
drive = hdr("model")
if (drive eq "" || drive eq "unknown") { drive = hdr("device") }
complete = hdr("complete")
partial = (complete eq "yes") ? "" : " (incomplete run)"
set grid lc rgb "#dddddd"
set key outside right top
