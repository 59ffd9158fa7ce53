# The datasheet presets are derived, not tuned: each data/drives/NAME.drive
# built from data/drives/datasheet/NAME.sheet is exactly what derive.awk makes
# of the sheet, and the simulated drive shows the sheet's figures: the seek
# times the model gives (sim info, computed in C, not by the generator), the
# sequential host rate in the outer zone (bench, through the engine), and a
# buffer no larger than the published one.  A sheet that asks for more buffer
# than published, or gives a figure without saying where it comes from, is
# refused with FILE:LINE.
. "$(dirname "$0")/common.bash"

D=$HDDSCOPE_SRC/data/drives
G=$D/datasheet/derive.awk
sheet() { sed -n "s/^$2 = \([^ ]*\) .*/\1/p" "$1"; }
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit !(d <= t && -d <= t) }'; }

n=0
for s in "$D"/datasheet/*.sheet; do
	name=$(basename "$s" .sheet)
	awk -f "$G" "$s" >"$T/$name.drive" 2>"$T/err" || { cat "$T/err" >&2; fail "$name: derive.awk failed"; }
	cmp -s "$T/$name.drive" "$D/$name.drive" ||
		{ diff "$T/$name.drive" "$D/$name.drive" | head >&2; fail "$name.drive is not derive.awk's output of $name.sheet"; }
	run 0 "$HDDSCOPE" sim info "$name"
	info() { sed -n "s/^$1: //p" "$T/out"; }
	for k in seek_t2t_ms:seek_1_ms seek_avg_ms:seek_avg_ms seek_full_ms:seek_full_ms \
		write_seek_t2t_ms:write_seek_1_ms write_seek_avg_ms:write_seek_avg_ms write_seek_full_ms:write_seek_full_ms; do
		want=$(sheet "$s" "${k%%:*}")
		[ -n "$want" ] || continue
		got=$(info "${k#*:}")
		near "$got" "$want" 0.005 || fail "$name: ${k#*:} $got, the sheet says $want"
	done
	[ "$(info sectors)" -le "$(( $(sheet "$s" lbas) * 512 / $(sheet "$s" sector_bytes) ))" ] ||
		fail "$name: more sectors than published"
	if [ "$(sheet "$s" rate_kind)" = sustained ]; then
		run 0 "$HDDSCOPE" bench -q --time 1s -o "$T/b.tsv" "sim:$name"
		got=$(awk -F'\t' '$1 == "seq_read" { print $2 }' "$T/b.tsv")
		want=$(sheet "$s" rate_outer_mb_s)
		awk -v g="$got" -v w="$want" 'BEGIN { exit !(g > 0.98 * w && g < 1.01 * w) }' ||
			fail "$name: sequential read $got MB/s from the start, the sheet says $want sustained"
	fi
	n=$((n + 1))
done
[ "$n" -ge 4 ] || fail "only $n sheets"
pass "$n datasheet presets: derived exactly, seek figures and sustained rates as published"

sed 's/^set cache_segments = .*/set cache_segments = 64 [A]/' "$D/datasheet/dtla307030.sheet" >"$T/big.sheet"
run 2 awk -f "$G" "$T/big.sheet"
grep -q "^$T/big.sheet:[0-9]*: the read segments and the write cache take [0-9]* KB, more than buffer_kb 1916" "$T/err" ||
	{ cat "$T/err" >&2; fail "a sheet over its buffer"; }
sed 's/^\(seek_avg_ms = 8.5\) \[Mq\]/\1/' "$D/datasheet/dtla307030.sheet" >"$T/untagged.sheet"
run 2 awk -f "$G" "$T/untagged.sheet"
grep -q "^$T/untagged.sheet:[0-9]*: no \[TAG\] on seek_avg_ms" "$T/err" || { cat "$T/err" >&2; fail "an untagged figure"; }
pass "sheets over their buffer or without a tag are refused"

# The article the charts come from (reference data: article-dtla-vs-seagate.md):
# the DTLA takes writes into a buffer managed as a queue, so writes over
# +-1 GB complete in under 1 ms; the Seagate's write time rises with the
# distance from the reference and it needs about 8 ms after a write before
# the next one.  The presets get this from their caches (dtla307030: a
# write-back cache, `on`; st320420a: one write segment written out before
# the next request is served, `flush`), replayed here as the article's
# prober worked: a write at the reference, then one at a distance; a write,
# a wait, then a write elsewhere.
ref=20000000
: >"$T/seek.trace"
for d in 2048 -2048 2097152 -2097152; do
	for k in $(seq 40); do
		printf 'W %d 8 0\nW %d 8 0\n' "$ref" $((ref + d + k * 4096)) >>"$T/seek.trace"
	done
done
: >"$T/iv.trace"
for gap in 0 1000 2000 3000 12000 14000 16000 20000; do
	for k in $(seq 10); do
		printf 'W %d 8 %d\nW %d 8 100000\n' $((ref + k * 65536)) "$gap" $((ref + 1048576 + k * 65536)) >>"$T/iv.trace"
	done
done
for p in dtla307030 st320420a; do
	run 0 "$HDDSCOPE" replay --drive "$p" -o "$T/seek-$p.tsv" "$T/seek.trace"
	run 0 "$HDDSCOPE" replay --drive "$p" -o "$T/iv-$p.tsv" "$T/iv.trace"
done
# Target writes (even rows) by distance group of 80 rows: +-1 MB, then +-1 GB.
means() { grep -v '^#' "$1" | awk -F'\t' -v per="$2" 'NR % 2 == 0 { g = int((NR - 1) / per); s[g] += $5; n[g]++; if ($5 > mx) mx = $5 }
	END { for (g = 0; g in n; g++) printf "%.3f ", s[g] / n[g]; printf "max %.3f\n", mx }'; }
read -r near far _ dmax <<<"$(means "$T/seek-dtla307030.tsv" 160)"
awk -v m="$dmax" 'BEGIN { exit !(m < 1) }' || fail "dtla307030: a write after a write took $dmax ms"
read -r near far _ smax <<<"$(means "$T/seek-st320420a.tsv" 160)"
echo "write after a write: dtla307030 at most $dmax ms; st320420a $near ms at +-1 MB, $far ms at +-1 GB"
awk -v a="$near" -v b="$far" 'BEGIN { exit !(a > 2 && b > a + 1) }' ||
	fail "st320420a: writes at +-1 MB ($near ms) and +-1 GB ($far ms) should rise with the distance"
read -r _ _ _ _ _ _ _ _ _ dmax <<<"$(means "$T/iv-dtla307030.tsv" 20)"
awk -v m="$dmax" 'BEGIN { exit !(m < 1) }' || fail "dtla307030: a write after a wait took $dmax ms"
read -r g0 g1 g2 g3 g12 g14 g16 g20 _ _ <<<"$(means "$T/iv-st320420a.tsv" 20)"
echo "st320420a, the next write after a gap of 0/1/2/3 ms: $g0 $g1 $g2 $g3 ms; after 12/14/16/20 ms: $g12 $g14 $g16 $g20 ms"
awk -v a="$g0" -v b="$g3" -v c="$g16" -v d="$g20" 'BEGIN { exit !(a > 4 && b > 2 && c < 1 && d < 1) }' ||
	fail "st320420a: the write after a short gap should wait for the one before"
pass "the article's write differences: dtla307030's queue, st320420a's single write segment"
