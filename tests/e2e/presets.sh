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
