# The charts of issue 15: "(simulated)" in the title of a sim: device's chart and
# not of a file's; keys that list only the classes a file has; the per-bin median
# and p99 that hddscope plot hands gnuplot, against percentiles computed here from
# the rows; the density path above 100000 rows (its counts against the rows);
# --axis reaching gnuplot from plot, profile and compare; tick labels that do not
# overlap; a replay's two CDFs against the trace's known service times.
. "$(dirname "$0")/common.bash"
command -v gnuplot >/dev/null || skip "no gnuplot"

# A gnuplot in front of the real one: it records the -e statements hddscope
# passes and copies the files they name while they exist, then draws.
REAL=$(command -v gnuplot)
mkdir -p "$T/bin" "$T/rec"
cat >"$T/bin/gnuplot" <<EOF
#!/bin/bash
if [ "\$1" = -e ]; then
	printf '%s\n' "\$2" >>"$T/rec/vars"
	for v in PCTL DENS CDF; do
		f=\$(printf '%s\n' "\$2" | sed -n "s/.*\$v='\([^']*\)'.*/\1/p")
		[ -n "\$f" ] && cp "\$f" "$T/rec/\$v.tsv"
	done
fi
exec "$REAL" "\$@"
EOF
chmod +x "$T/bin/gnuplot"
export PATH="$T/bin:$PATH"

# p50 and p99 as hddscope computes them (linear interpolation between the
# order statistics) of the numbers on stdin: "n p50 p99".
pct() { sort -g | awk '{ v[NR] = $1 } END {
	n = NR; if (!n) { print 0, "NaN", "NaN"; exit }
	for (q = 50; q <= 99; q += 49) { pos = q / 100 * (n - 1); i = int(pos); f = pos - i
		r[q] = (i + 1 < n) ? v[i + 1] + f * (v[i + 2] - v[i + 1]) : v[i + 1] }
	printf "%d %.6f %.6f\n", n, r[50], r[99] }'; }
# media latencies of op with distances in [lo, hi), or equal to lo = hi (a bin
# of one distance; pooled ones of several: [lo, hi]): the rows of a bin.
sel() { awk -F'\t' -v op="$2" -v lo="$3" -v hi="$4" -v keyed="$5" '!/^#/ && $5 == "media" && $4 == op &&
	$1 + 0 >= lo + 0 && ($1 + 0 < hi + 0 || (keyed && $1 + 0 == hi + 0)) { print $3 }' "$1"; }
# check_bins DATA BINS: every bin's n and median, and its p99 (over the bins it
# pools), against the rows; at least MIN bins with a p99.
check_bins() {
	local n=0 np99=0 x cnt p50 p90 p99 max lo hi op plo phi pn got keyed
	while IFS=$'\t' read -r x cnt p50 p90 p99 max lo hi op plo phi pn; do
		case $x in ''|'#'*) continue ;; esac
		keyed=0; [ "$lo" = "$hi" ] && keyed=1
		got=$(sel "$1" "$op" "$lo" "$hi" $keyed | pct)
		[ "${got%% *}" = "$cnt" ] || fail "$2: bin $lo..$hi ($op): n $cnt, the rows give ${got%% *}"
		awk -v a="$(echo "$got" | cut -d' ' -f2)" -v b="$p50" 'BEGIN { d = a - b; exit !(d < 1e-5 && d > -1e-5) }' ||
			fail "$2: bin $lo..$hi ($op): median $p50, the rows give $(echo "$got" | cut -d' ' -f2)"
		if [ "$p99" != NaN ]; then
			got=$(sel "$1" "$op" "$plo" "$phi" $keyed | pct)
			[ "${got%% *}" = "$pn" ] && [ "$pn" -ge 100 ] || fail "$2: p99 of $plo..$phi: n $pn, the rows give ${got%% *}"
			awk -v a="${got##* }" -v b="$p99" 'BEGIN { d = a - b; exit !(d < 1e-5 && d > -1e-5) }' ||
				fail "$2: bin $lo..$hi ($op): p99 $p99, the rows of $plo..$phi give ${got##* }"
			np99=$((np99 + 1))
		fi
		n=$((n + 1))
	done <"$2"
	[ "$n" -ge "$3" ] && [ "$np99" -ge "$4" ] || fail "$2: $n bins, $np99 with a p99; want $3 and $4"
}

# ---- a simulated drive: titles, keys, bins ----
run 0 "$HDDSCOPE" seek -q --samples 3000 -o "$T/seek.tsv" sim:atlas3
run 0 "$HDDSCOPE" plot --svg --bins -o "$T/c" "$T/seek.tsv"
grep -q "QUANTUM_QM39100TD-SW (simulated): read seek, 3000 samples" "$T/c/seek.svg" || fail "sim: seek title without (simulated)"
grep -q "AXIS='symlog'" "$T/rec/vars" || fail "symlog is not the default: $(cat "$T/rec/vars")"
grep -q "SYMC=262144;" "$T/rec/vars" || fail "symlog's c is not the smallest distance (256K): $(cat "$T/rec/vars")"
grep -q "DENS=" "$T/rec/vars" && fail "density drawn for 3000 rows"
[ -e "$T/c/seek-density.tsv" ] && fail "density file for 3000 rows"
grep -q '<image' "$T/c/seek.svg" && fail "an image in a 3000-row chart"
cmp -s "$T/rec/PCTL.tsv" "$T/c/seek-bins.tsv" || fail "--bins kept other numbers than gnuplot drew"
check_bins "$T/seek.tsv" "$T/c/seek-bins.tsv" 12 12
pass "seek: (simulated), symlog by default, $(grep -vc '^#' "$T/c/seek-bins.tsv") bins equal to the rows' percentiles"

# The key: exactly the classes present.  The sim drive's file has media and a
# few cache hits; a copy without the cache rows (its header saying so) must
# lose "cache hit", and one with an error row must gain "error".
key_has() { grep -q "<title>$2</title>" "$1"; }
ncache=$(hdr "$T/seek.tsv" samples_cache)
[ "$ncache" -gt 0 ] || fail "the sim seek has no cache hit to test the key with"
key_has "$T/c/seek.svg" media && key_has "$T/c/seek.svg" "cache hit" || fail "key lacks a class present"
key_has "$T/c/seek.svg" error && fail "key lists error without one"
key_has "$T/c/seek.svg" unknown && [ "$(hdr "$T/seek.tsv" samples_unknown)" = 0 ] && fail "key lists unknown without one"
awk -F'\t' '/^# samples_cache:/ { print "# samples_cache: 0"; next } /^#/ || $5 != "cache"' "$T/seek.tsv" >"$T/nocache.tsv"
awk -F'\t' -v OFS='\t' '/^# samples_error:/ { print "# samples_error: 1"; next } !/^#/ && !done && $5 == "media" { $5 = "error"; done = 1 } 1' \
	"$T/seek.tsv" >"$T/witherr.tsv"
run 0 "$HDDSCOPE" plot --svg -o "$T/c" "$T/nocache.tsv" "$T/witherr.tsv"
key_has "$T/c/nocache.svg" "cache hit" && fail "key lists cache hit for a file without one"
key_has "$T/c/nocache.svg" media || fail "key lost media"
key_has "$T/c/witherr.svg" error || fail "key lacks error for a file with one"
pass "seek key: only the classes present (cache hit $ncache, then 0; error 0, then 1)"

# --axis linear reaches gnuplot; its bins are equal lengths and still the rows' percentiles.
: >"$T/rec/vars"
run 0 "$HDDSCOPE" plot --axis linear --bins -o "$T/lin" "$T/seek.tsv"
grep -q "AXIS='linear'" "$T/rec/vars" || fail "--axis linear not passed: $(cat "$T/rec/vars")"
check_bins "$T/seek.tsv" "$T/lin/seek-bins.tsv" 10 10
run 1 "$HDDSCOPE" plot --axis cubic "$T/seek.tsv"
expect_err "axis"
pass "--axis linear: passed, bins equal to the rows' percentiles"

# --bins keeps its files under the output rule: a link at NAME-bins.tsv is refused and
# left alone; without --bins nothing is written there, and the chart is drawn.
mkdir "$T/ln" && ln -s "$T/seek.tsv" "$T/ln/seek-bins.tsv"
run 2 "$HDDSCOPE" plot --bins -o "$T/ln" "$T/seek.tsv"
expect_err "seek-bins.tsv: is a symbolic link"
[ -L "$T/ln/seek-bins.tsv" ] && [ ! -e "$T/ln/seek.png" ] || fail "--bins over a link: the link replaced or a chart drawn"
run 0 "$HDDSCOPE" plot -o "$T/ln" "$T/seek.tsv"
[ -s "$T/ln/seek.png" ] && [ -L "$T/ln/seek-bins.tsv" ] || fail "a link at NAME-bins.tsv stopped a chart without --bins"
[ "$(ls "$T/ln" | wc -l)" = 2 ] || fail "temporary files left: $(ls "$T/ln")"
pass "--bins under the output rule; without it only the chart is written"

# Response: reads and writes, a ladder of distances: percentiles per distance,
# p99 pooled to 100 samples; reads and writes with different marks in the key.
# With the write cache off the writes reach the media; with it on (the model's
# default) every write is a cache hit, and the key has no write median.
run 0 "$HDDSCOPE" response -q --write --write-cache off -o "$T/resp.tsv" sim:atlas3
run 0 "$HDDSCOPE" plot --svg --bins -o "$T/c" "$T/resp.tsv"
check_bins "$T/resp.tsv" "$T/c/resp-bins.tsv" 80 80
for t in read write "read median (media)" "write median (media)" "read p99" "write p99" "read, cache hit" unknown; do
	key_has "$T/c/resp.svg" "$t" || fail "response key lacks '$t'"
done
key_has "$T/c/resp.svg" "write, cache hit" && fail "response key: write cache hits with the write cache off"
grep -q "(simulated): response time" "$T/c/resp.svg" || fail "response title without (simulated)"
run 0 "$HDDSCOPE" response -q --write -o "$T/respc.tsv" sim:atlas3
[ "$(awk -F'\t' '!/^#/ && $4 == "write" && $5 != "cache"' "$T/respc.tsv" | wc -l)" = 0 ] || fail "write cache on: writes not all hits"
run 0 "$HDDSCOPE" plot --svg -o "$T/c" "$T/respc.tsv"
for t in "write, cache hit" "read median (media)"; do key_has "$T/c/respc.svg" "$t" || fail "cached response key lacks '$t'"; done
for t in write "write median (media)" "write p99"; do key_has "$T/c/respc.svg" "$t" && fail "cached response key has '$t'"; done
pass "response: per-distance median and pooled p99 equal to the rows', reads and writes in the key as present"

# ---- a regular file: no "(simulated)" ----
head -c $((64 << 20)) /dev/urandom >"$T/disk.img"
run 0 "$HDDSCOPE" seek -q --samples 200 --range 16m -o "$T/file.tsv" "$T/disk.img"
run 0 "$HDDSCOPE" plot --svg -o "$T/c" "$T/file.tsv"
grep -q "read seek, 200 samples" "$T/c/file.svg" || fail "file seek title"
grep -q "(simulated)" "$T/c/file.svg" && fail "(simulated) on a file's chart"
pass "a file's chart does not say (simulated)"

# ---- density above 100000 rows ----
run 0 "$HDDSCOPE" seek -q --samples 100001 -o "$T/big.tsv" sim:atlas3
: >"$T/rec/vars"
run 0 "$HDDSCOPE" plot --svg --bins -o "$T/c" "$T/big.tsv"
grep -q "DENS=" "$T/rec/vars" || fail "no density for 100001 rows"
grep -q '<image' "$T/c/big.svg" || fail "no image in the 100001-row chart"
cmp -s "$T/rec/DENS.tsv" "$T/c/big-density.tsv" || fail "--bins kept another grid than gnuplot drew"
want=$(awk -F'\t' '!/^#/ && ($5 == "media" || $5 == "unknown") { n++ } END { print n + 0 }' "$T/big.tsv")
got=$(awk -F'\t' '!/^#/ && NF == 3 && $3 != "NaN" { s += $3; c++ } END { print s + 0, c + 0 }' "$T/c/big-density.tsv")
[ "${got%% *}" = "$want" ] || fail "density grid counts ${got%% *} samples, the file has $want media and unknown"
[ "${got##* }" -gt 1000 ] || fail "density grid: only ${got##* } cells filled"
[ "$(grep -vc '^#' "$T/c/big-density.tsv" | awk '{ print $1 }')" -ge $((320 * 160)) ] || fail "density grid is not 320 x 160"
key_has "$T/c/big.svg" "cache hit" || fail "the density chart's cache hits (points) are not in the key"
check_bins "$T/big.tsv" "$T/c/big-bins.tsv" 60 60
pass "100001 rows: density of $want samples in ${got##* } cells, cache hits drawn over it"

# ---- no tick label overlaps another, in every SVG chart of a profile and a comparison ----
# gnuplot writes each centred label as <g transform="translate(X,Y)" ... font-size="F"
# text-anchor="middle"> then its text: labels on one Y must be at least half
# their widths apart (0.6 em a character).
overlaps() {
	awk '/text-anchor="middle"/ { if (match($0, /translate\([0-9.]+,[0-9.]+\)/)) { split(substr($0, RSTART + 10, RLENGTH - 11), p, ",")
		x = p[1]; y = p[2] } fs = 12; if (match($0, /font-size="[0-9.]+"/)) fs = substr($0, RSTART + 11, RLENGTH - 12) + 0; want = 1; next }
	want && /<text>/ { t = $0; gsub(/<[^>]*>/, "", t); gsub(/^[ \t]+|[ \t]+$/, "", t); n[y]++; X[y, n[y]] = x; L[y, n[y]] = length(t) * 0.6 * fs; T[y, n[y]] = t; want = 0 }
	END { for (y in n) for (i = 1; i <= n[y]; i++) for (j = i + 1; j <= n[y]; j++) {
		d = X[y, i] - X[y, j]; if (d < 0) d = -d
		if (d < (L[y, i] + L[y, j]) / 2) { printf "%s: \"%s\" and \"%s\" overlap at y %s\n", FILENAME, T[y, i], T[y, j], y; bad = 1 } }
		exit bad }' "$1"
}
run 0 "$HDDSCOPE" profile -q --svg --write -o "$T/pa" sim:atlas3
run 0 "$HDDSCOPE" profile -q --svg --write -o "$T/pb" sim:st2000dm001
run 0 "$HDDSCOPE" compare -q --svg -o "$T/cmp" "$T/pa" "$T/pb"
# Three drives: narrower panels side by side.
run 0 "$HDDSCOPE" profile -q --quick --no-charts -o "$T/pc" sim:dtla307030
run 0 "$HDDSCOPE" compare -q --svg -o "$T/cmp3" "$T/pa" "$T/pb" "$T/pc"
n=0
for f in "$T"/pa/charts/*.svg "$T"/cmp/charts/*.svg "$T"/cmp3/charts/*.svg; do
	overlaps "$f" >>"$T/overlaps" || true
	case $f in
	*/pa/*) grep -q "(simulated)" "$f" || fail "$f: no (simulated) in the title" ;;
	*/cmp3/*) grep -q "DTLA-307030 (simulated)" "$f" || fail "$f: the third drive's name lacks (simulated)" ;;
	esac
	n=$((n + 1))
done
[ ! -s "$T/overlaps" ] || { cat "$T/overlaps" >&2; fail "labels overlap"; }
[ "$n" -ge 20 ] || fail "only $n charts"
pass "$n profile and compare charts (two and three drives): no centred labels overlap; every profile chart says (simulated)"

# --axis from profile and compare: the variable reaches gnuplot.
: >"$T/rec/vars"
run 0 "$HDDSCOPE" compare -q --axis linear -o "$T/cmpl" "$T/pa" "$T/pb"
grep -q "AXIS='linear'" "$T/rec/vars" || fail "compare --axis linear not passed"
grep -q "AXIS='symlog'" "$T/rec/vars" && fail "compare --axis linear: a chart got symlog"
: >"$T/rec/vars"
run 0 "$HDDSCOPE" profile -q --quick --axis linear -o "$T/pl" sim:atlas3
grep -q "AXIS='linear'" "$T/rec/vars" || fail "profile --axis linear not passed"
grep -q "AXIS='symlog'" "$T/rec/vars" && fail "profile --axis linear: a chart got symlog"
pass "--axis linear from profile and compare"

# ---- replay: the two CDFs against the trace's known service times ----
# DiskSim's validation format: R|W Hit|Miss LBN BLOCKS SERVICE NEXT_INTERARRIVAL.
printf 'R Miss 0 8 3000 0\nR Hit 0 8 500 0\nW Miss 800 8 1500 100\nR Miss 4000 8 2000 0\n' >"$T/v.trace"
run 0 "$HDDSCOPE" replay --drive atlas3 -o "$T/replay.tsv" "$T/v.trace"
run 0 "$HDDSCOPE" plot --bins -o "$T/c" "$T/replay.tsv"
[ -s "$T/c/replay.png" ] || fail "no replay chart"
grep -q "MEASURED=1" "$T/rec/vars" || fail "replay chart not told of measured times"
cmp -s "$T/rec/CDF.tsv" "$T/c/replay-cdf.tsv" || fail "--bins kept other CDFs than gnuplot drew"
# index 1 (measured): the service times of the trace, ms, sorted, at 1/4 .. 4/4.
meas=$(awk 'b == 2 && NF == 2 { printf "%s %s;", $1, $2 } /^$/ { b++ }' "$T/c/replay-cdf.tsv")
[ "$meas" = "0.500000 0.250000000;1.500000 0.500000000;2.000000 0.750000000;3.000000 1.000000000;" ] ||
	fail "measured CDF: $meas"
want=$(awk -F'\t' '!/^#/ { print $5 }' "$T/replay.tsv" | sort -g | awk '{ printf "%.6f %.9f;", $1, NR / 4 }')
sim=$(awk 'b == 0 && NF == 2 && !/^#/ { printf "%s %s;", $1, $2 } /^$/ { b++ }' "$T/c/replay-cdf.tsv")
[ "$sim" = "$want" ] || fail "simulated CDF: $sim, want $want"
pass "replay: measured CDF equals the trace's times, simulated CDF the sorted sim_ms"
