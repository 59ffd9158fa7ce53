# response, media, zone and bench on a regular file: row counts, distances,
# offsets, alignment and bounds against the options; writes leave every byte.
. "$(dirname "$0")/common.bash"

img=$T/disk.img
size=$((64 << 20))
head -c $size /dev/urandom >"$img" || fail "cannot create $img"
sum0=$(sha256sum <"$img")
rows() { grep -vc '^#' "$1"; }

# response: 40 distances x 4 reps, both directions at each, from 4 KiB to the whole file; the
# distances beyond two blocks and up to 16 (8 KiB < d <= 64 KiB: 10 of them on this grid, where
# the first distances are one 4 KiB unit apart) four times as many.
run 0 "$HDDSCOPE" response --quiet --points 40 --reps 4 -o "$T/resp.tsv" "$img"
[ "$(hdr "$T/resp.tsv" test)" = response ] || fail "response: test header"
[ "$(hdr "$T/resp.tsv" complete)" = yes ] || fail "response: not complete"
[ "$(rows "$T/resp.tsv")" = $((160 + 10 * 3 * 4)) ] || fail "response: $(rows "$T/resp.tsv") rows, want 280"
grep -qx '# columns: distance_bytes start_bytes latency_ms op class delay_ms' "$T/resp.tsv" || fail "response: columns"
awk -F'\t' -v size=$size '
	/^#/ { next }
	{ a = $1 < 0 ? -$1 : $1; n[a]++; if ($1 > 0) pos[a]++; else neg[a]++
	  t = $2 + $1
	  if ($2 % 4096 || $1 % 4096 || $2 < 0 || t < 0 || t + 4096 > size) { print "line " NR ": start " $2 " d " $1; bad++ }
	  # unknown: a sample whose reference read kept looking like a cache hit (a busy machine does that to a file)
	  if ($4 != "read" || ($5 != "media" && $5 != "cache" && $5 != "unknown")) { print "line " NR ": " $4 " " $5; bad++ }
	  if (a < min || min == "") min = a; if (a > max) max = a }
	END {
		for (a in n) {
			k++; w = a + 0 > 8192 && a + 0 <= 65536 ? 8 : 2; near += w == 8
			if (pos[a] != w || neg[a] != w) { print a ": " pos[a] "+ " neg[a] "-, want " w; bad++ }
		}
		if (k != 40 || near != 10) { print k " distances, " near " near"; bad++ }
		if (min != 4096 || max != size - 4096) { print "distances " min ".." max; bad++ }
		exit bad > 0
	}' "$T/resp.tsv" || fail "response: grid"
pass "response grid"

run 0 "$HDDSCOPE" response --quiet --write --points 40 --reps 2 -o "$T/respw.tsv" "$img"
[ "$(rows "$T/respw.tsv")" = $((2 * (80 + 10 * 3 * 2))) ] || fail "response --write: rows"
[ "$(grep -c $'\twrite\t' "$T/respw.tsv")" = 140 ] || fail "response --write: 140 write rows"
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "response --write changed the file"
pass "response writes preserve every byte"

# media: 4 KiB .. 1 MiB is 9 sizes, 5 reps each, targets within +-range of the middle.
run 0 "$HDDSCOPE" media --quiet --reps 5 --range 8m -o "$T/media.tsv" "$img"
[ "$(rows "$T/media.tsv")" = 45 ] || fail "media: $(rows "$T/media.tsv") rows, want 45"
awk -F'\t' -v range=$((8 << 20)) '
	/^#/ { next }
	{ c[$1]++; a = $2 < 0 ? -$2 : $2; if (a > range || $2 % 4096) { print "line " NR ": distance " $2; bad++ } }
	END { for (z = 4096; z <= 1048576; z *= 2) if (c[z] != 5) { print z ": " c[z]; bad++ }; exit bad > 0 }' \
	"$T/media.tsv" || fail "media: sizes and distances"
pass "media sizes"

# zone: 10 points from the start to the end.
run 0 "$HDDSCOPE" zone --quiet --points 10 --size 8m -o "$T/zone.tsv" "$img"
[ "$(rows "$T/zone.tsv")" = 10 ] || fail "zone: rows"
awk -F'\t' -v size=$size '
	/^#/ { next }
	{ if ($1 < last || $1 % 4096 || $1 + 9 * 1048576 > size || $2 <= 0) { print "line " NR; bad++ }; last = $1; n++; if (n == 1) first = $1 }
	END { if (first != 0 || last < size - 10 * 1048576) { print "span " first ".." last; bad++ }; exit bad > 0 }' \
	"$T/zone.tsv" || fail "zone: offsets"
pass "zone positions"

# bench: two figures without --write, four with; the file keeps its bytes.
run 0 "$HDDSCOPE" bench --quiet --time 200ms --span 16m -o "$T/bench.tsv" "$img"
[ "$(grep -v '^#' "$T/bench.tsv" | cut -f1 | tr '\n' ' ')" = "seq_read rand_read " ] || fail "bench rows"
grep -q "^$img | [0-9.]* | - | [0-9.]* ([0-9]* IOPS[^)]*) | -\$" "$T/out" || { cat "$T/out"; fail "bench row on stdout"; }
run 0 "$HDDSCOPE" bench --quiet --write --time 200ms --span 16m -o "$T/benchw.tsv" "$img"
[ "$(grep -v '^#' "$T/benchw.tsv" | cut -f1 | tr '\n' ' ')" = "seq_read seq_write rand_read rand_write " ] ||
	fail "bench --write rows"
awk -F'\t' '!/^#/ { if ($2 <= 0 || $3 <= 0 || $4 < 1 || $6 < 0.2) { print; bad++ } } END { exit bad > 0 }' \
	"$T/benchw.tsv" || fail "bench figures"
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "bench --write changed the file"
pass "bench"

for f in resp respw media zone bench benchw; do
	run 0 "$HDDSCOPE" plot -o "$T/charts" "$T/$f.tsv"
	[ -s "$T/charts/$f.png" ] || fail "no chart for $f"
done
# A file without a single row (a run stopped before its first sample) still charts.
for t in seek response media zone bench queue interval seekcurve; do
	printf '# hddscope-data 1\n# test: %s\n# complete: no\n# columns: a_bytes b_ms\n' $t >"$T/empty-$t.tsv"
	run 0 "$HDDSCOPE" plot -o "$T/charts" "$T/empty-$t.tsv"
	[ -s "$T/charts/empty-$t.png" ] || fail "no chart for an empty $t file"
done
pass "charts"
