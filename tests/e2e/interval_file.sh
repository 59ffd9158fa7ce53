# interval on a regular file: refused without --write (exit 2, nothing written);
# with it every byte is preserved, every requested interval is visited --reps times,
# the measured gap is never shorter than the one asked for; Ctrl-C; the chart.
. "$(dirname "$0")/common.bash"

img=$T/disk.img
head -c $((32 << 20)) /dev/urandom >"$img" || fail "cannot create $img"
sum0=$(sha256sum <"$img")

run 2 "$HDDSCOPE" interval --quiet -o "$T/n.tsv" "$img"
expect_err "add --write"
[ ! -e "$T/n.tsv" ] || fail "refused run left a data file"
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "refused run changed the file"
pass "refused without --write"

run 0 "$HDDSCOPE" interval --quiet --write --intervals 0:2:0.5 --reps 6 -o "$T/i.tsv" "$img"
f=$T/i.tsv
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "interval changed the file"
head -n 1 "$f" | grep -qx '# hddscope-data 1' || fail "no format line"
[ "$(hdr "$f" test)" = interval ] || fail "test is not interval"
[ "$(hdr "$f" complete)" = yes ] || fail "not complete"
[ "$(hdr "$f" samples)" = 30 ] || fail "samples $(hdr "$f" samples)"
[ -n "$(hdr "$f" write_cache_threshold_ms)" ] || fail "no write_cache_threshold_ms"
grep -qx '# columns: interval_ms actual_interval_ms latency_ms class offset_bytes' "$f" || fail "columns line"
# Every timed write is X' = X + block inside the 1 MiB window from the middle.
awk -F'\t' -v lo=$((16 << 20)) -v win=$((1 << 20)) '!/^#/ && ($5 % 4096 || $5 < lo + 4096 || $5 > lo + win + 4096) { print "offset " $5; bad++ }
	END { exit bad > 0 }' "$f" || fail "offsets"
awk -F'\t' '!/^#/ {
		n++; c[$1]++
		if ($2 < $1) { print "gap " $2 " shorter than asked " $1; bad++ }
		ex[n] = $2 - $1
		if (!($3 > 0)) { print "latency " $3; bad++ }
		# unknown: a sample the host kept waiting for a CPU through its retries (a busy machine)
		if ($4 != "media" && $4 != "cache" && $4 != "unknown") { print "class " $4; bad++ }
		order = order " " $1
	}
	END {
		for (v in c) { k++; if (c[v] != 6) { print "interval " v ": " c[v] " samples"; bad++ } }
		if (k != 5) { print k " distinct intervals, want 5"; bad++ }
		# Random order: not sorted (a sorted order of 30 draws has probability ~1e-18).
		if (order == " 0.000000 0.000000 0.000000 0.000000 0.000000 0.000000 0.500000") bad++
		exit bad > 0
	}' "$f" || fail "rows"
# The idle is precise: the first quartile of the gap's excess is below 0.2 ms (it is
# about 0.0001 ms on an idle machine), and the median below 1 ms: a busy machine
# preempts some idles, never most of them by a millisecond.
ex=$(grep -v '^#' "$f" | awk -F'\t' '{ print $2 - $1 }' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 3) / 4)], v[int((NR + 1) / 2)] }')
awk -v q="${ex% *}" -v m="${ex#* }" 'BEGIN { exit !(q >= 0 && q < 0.2 && m < 1) }' || fail "gap excess quartile, median $ex ms"
ex=${ex#* }
pass "data-preserving, every interval, measured gaps (median excess $ex ms)"

# --op read: no --write needed, nothing written; the timed read is the block before X.
run 0 "$HDDSCOPE" interval --quiet --op read --intervals 0:2:0.5 --reps 2 -o "$T/r.tsv" "$img"
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "interval --op read changed the file"
[ "$(hdr "$T/r.tsv" op)" = read ] || fail "op header: $(hdr "$T/r.tsv" op)"
[ -z "$(hdr "$T/r.tsv" write_cache_threshold_ms)" ] || fail "a read run with a write threshold"
awk -F'\t' -v lo=$((16 << 20)) -v win=$((16 << 20)) '!/^#/ { n++; if ($5 % 4096 || $5 < lo || $5 > lo + win) { print "offset " $5; bad++ } }
	END { if (n != 10) { print n " rows"; bad++ } exit bad > 0 }' "$T/r.tsv" || fail "read rows"
pass "--op read: read only, the block before X"

# Ctrl-C: partial file, complete: no, exit 130, file unchanged.
"$HDDSCOPE" interval --quiet --write --reps 100000 -o "$T/int.tsv" "$img" 2>"$T/err" &
pid=$!
wait_io $pid 300
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] || { cat "$T/err" >&2; fail "interrupted interval exited $rc, want 130"; }
[ "$(hdr "$T/int.tsv" complete)" = no ] || fail "interrupted file does not say complete: no"
[ "$(grep -vc '^#' "$T/int.tsv")" -gt 0 ] || fail "interrupted: no rows"
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "interrupted interval changed the file"
pass "Ctrl-C keeps what was measured"

run 0 "$HDDSCOPE" plot -o "$T/charts" "$f"
head -c 8 "$T/charts/i.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "chart is not a PNG"
pass "chart"

run 1 "$HDDSCOPE" interval --write --intervals 3:1:1 "$img"
expect_err "--intervals '3:1:1'"
run 1 "$HDDSCOPE" interval --write --step 1 --intervals 1,2 "$img"
expect_err "exclude each other"
pass "usage errors"
