# hddscope sim list/show/info/seek/locate against the preset files, model-file
# errors as FILE:LINE, and every preset through every probe that exists.
. "$(dirname "$0")/common.bash"

D=$HDDSCOPE_SRC/data/drives
presets=$(cd "$D" && ls *.drive | sed 's/\.drive$//')
[ "$(echo "$presets" | wc -l)" -ge 6 ] || fail "fewer than 6 presets in $D"

# list: every preset file, with the rpm and capacity its file implies.
run 0 "$HDDSCOPE" sim list
for p in $presets; do
	want=$(awk '
		{ sub(/#.*/, "") }
		$1 == "rpm" { rpm = $3 }
		$1 == "sector_bytes" { sb = $3 }
		$1 == "surfaces" { h = $3 }
		$1 == "zone" { cap += ($4 - $3 + 1) * h * $5 }
		# The layout of the DiskSim presets: empty space, spares per zone, slips to the end.
		$1 == "sparing" { sp = $3 }
		$1 == "zone_empty" { cap -= $3 }
		$1 == "zone_spares" && sp == "sectors_per_zone" { cap -= $3 }
		$1 == "zone_slips" && sp == "sectors_at_end" { cap -= NF - 2 }
		END { printf "%s %.0f %.1f GB", "'"$p"'", rpm, cap * sb / 1e9 }' "$D/$p.drive")
	got=$(awk -v p="$p" '$1 == p { printf "%s %s %s %s", $1, $2, $3, $4 }' "$T/out")
	[ "$got" = "$want" ] || fail "sim list: '$got', want '$want'"
done
grep -q '^atlas3 .*measured' "$T/out" || fail "sim list: atlas3 source"
pass "sim list"

# show prints the file itself; DiskSim-derived presets carry the license notice.
for p in $presets; do
	run 0 "$HDDSCOPE" sim show "$p"
	cmp -s "$T/out" "$D/$p.drive" || fail "sim show $p differs from $D/$p.drive"
done
for p in atlas3 cheetah9lp; do
	grep -q 'NO WARRANTY' "$D/$p.drive" && grep -q 'Carnegie Mellon' "$D/$p.drive" || fail "$p: no DiskSim notice"
done
pass "sim show"

# info: numbers derived from the model.
run 0 "$HDDSCOPE" sim info atlas3
[ "$(sed -n 's/^capacity_bytes: //p' "$T/out")" = $((17797944 * 512)) ] || fail "atlas3 capacity"
[ "$(sed -n 's/^cylinders: //p' "$T/out")" = 8057 ] || fail "atlas3 cylinders"
[ "$(sed -n 's/^revolution_ms: //p' "$T/out")" = 8.333333 ] || fail "atlas3 revolution"
run 0 "$HDDSCOPE" sim info st2000dm001
[ "$(sed -n 's/^sector_bytes: //p' "$T/out")" = 4096 ] || fail "st2000dm001 sector"
pass "sim info"

# seek: the curve interpolated and extrapolated from the seek lines, here in awk.
dists="1 2 11 2650 7998 8056 3"
run 0 "$HDDSCOPE" sim seek atlas3 $dists
awk -v dists="$dists" '
	FNR == NR { sub(/#.*/, ""); if ($1 == "seek") { n++; x[n] = $3; y[n] = $4 } next }
	function curve(d,   i) {
		if (d == 0) return 0
		if (d <= x[1]) return y[1] * d / x[1]
		for (i = 2; i <= n; i++) if (d <= x[i]) break
		if (i > n) i = n
		return y[i-1] + (y[i] - y[i-1]) * (d - x[i-1]) / (x[i] - x[i-1])
	}
	{ w = curve($1); if ($2 - w > 1e-5 || w - $2 > 1e-5) { print "seek " $1 ": " $2 ", want " w; bad++ } m++ }
	END { exit bad || m != split(dists, a, " ") }' "$D/atlas3.drive" "$T/out" || fail "sim seek atlas3"
pass "sim seek"

# locate: zone boundaries of atlas3 (DiskSim's layout: 128000 empty sectors before LBA 0 and
# 4 slips in zone 0, so zone 1 (cylinder 616) starts at LBA 616 * 10 * 256 - 128004).
z1=$((616 * 10 * 256 - 128004))
run 0 "$HDDSCOPE" sim locate atlas3 0 $((z1 * 512 - 512)) $((z1 * 512)) $(((z1 + 252 * 10 + 3) * 512))
printf '0\t0\t50\t0\t0\n%d\t%d\t615\t9\t255\n%d\t%d\t616\t0\t0\n%d\t%d\t617\t0\t3\n' \
	$((z1 * 512 - 512)) $((z1 - 1)) $((z1 * 512)) $z1 $(((z1 + 2523) * 512)) $((z1 + 2523)) |
	cmp -s - "$T/out" || { cat "$T/out" >&2; fail "sim locate"; }
pass "sim locate"

# Malformed model files: FILE:LINE: reason, exit 2, whichever command reads them.
printf 'format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 2\nzone = 0 99 100\nzone = 50 60 90\nseek = 1 1\n' >"$T/bad.drive"
run 2 "$HDDSCOPE" sim show "$T/bad.drive"
expect_err "$T/bad.drive:6: zone: cylinders 50-60 overlap"
run 2 "$HDDSCOPE" info "sim:$T/bad.drive"
expect_err "$T/bad.drive:6: zone"
printf 'format = 1\nrpm = 7200\nspeed = 3\n' >"$T/bad2.drive"
run 2 "$HDDSCOPE" seek -q "sim:$T/bad2.drive" -o "$T/x.tsv"
expect_err "$T/bad2.drive:3: unknown key 'speed'"
[ ! -e "$T/x.tsv" ] || fail "a data file was left after a bad model"
run 2 "$HDDSCOPE" info sim:nosuch
expect_err "unknown preset 'nosuch'"
run 2 "$HDDSCOPE" info "sim:$T/missing.drive"
expect_err "missing.drive"
run 2 "$HDDSCOPE" info "sim:atlas3,seed=x"
expect_err "bad seed"
run 0 "$HDDSCOPE" info "sim:atlas3,seed=3"
run 2 "$HDDSCOPE" sim show nosuch
run 1 "$HDDSCOPE" sim
run 1 "$HDDSCOPE" sim frobnicate
run 0 "$HDDSCOPE" sim --help
grep -q '^Usage: hddscope sim' "$T/out" || fail "sim --help"
pass "model errors"

# Every preset through every probe and a quick profile with writes; results are checked for sanity.
for p in $presets; do
	run 0 "$HDDSCOPE" info "sim:$p"
	want=$("$HDDSCOPE" sim info "$p" | sed -n 's/^capacity_bytes: //p')
	grep -Eq "^size: +$want bytes" "$T/out" || fail "info sim:$p: size, want $want"
	for c in seek response media queue bench zone interval; do
		w=""
		[ $c = interval ] && w=--write
		"$HDDSCOPE" $c $w -q "sim:$p" -o "$T/$c-$p.tsv" >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc -eq 0 ] || { cat "$T/err" >&2; fail "$c sim:$p exited $rc"; }
		f=$T/$c-$p.tsv
		[ -s "$f" ] || f=$(ls "$T/$c-$p"*.tsv | head -n 1)
		head -n 1 "$f" | grep -qx '# hddscope-data 1' || fail "$c sim:$p: no data file"
		[ "$(hdr "$f" complete)" = yes ] || fail "$c sim:$p: incomplete"
	done
	run 0 "$HDDSCOPE" profile -q --quick --write --no-charts -o "$T/prof-$p" "sim:$p"
	[ "$(ls "$T/prof-$p"/*.tsv | wc -l)" -ge 8 ] || fail "profile sim:$p: data files"
done
# The seek probe's media latencies stay within what the drive can do: above
# zero, below a full-stroke seek plus two revolutions and 3 ms of overheads.
for p in $presets; do
	full=$("$HDDSCOPE" sim info "$p" | sed -n 's/^seek_full_ms: //p')
	rev=$("$HDDSCOPE" sim info "$p" | sed -n 's/^revolution_ms: //p')
	awk -v hi="$(awk -v f="$full" -v r="$rev" 'BEGIN { print f + 2 * r + 3 }')" '!/^#/ && $5 == "media" { if ($3 <= 0 || $3 > hi) bad++ } END { exit bad > 0 }' \
		"$T/seek-$p.tsv" || fail "seek sim:$p: media latency out of range"
done
pass "every preset through every probe"
