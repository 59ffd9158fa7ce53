# hddscope layout on simulated drives, fitted, against the truth of each model file: bytes per
# track at the walk, surfaces and the number of zones exactly, head switch and one-cylinder seek
# within max(0.15 ms, 15%), and with --write the write seek's extra over the read seek at one
# cylinder within the same.  The presets here; DiskSim's models in layout_disksim.sh.  Every truth is
# computed from the model file (its zone, surfaces, head_switch_ms, seek and write lines); the
# offset's cylinder comes from sim locate.
source "$(dirname "$0")/common.bash"

source "$(dirname "$0")/layout_check.bash"

for p in atlas3 cheetah9lp dtla307030 st2000dm001 st320420a travelstar5k320; do
	layout_check "$HDDSCOPE_SRC/data/drives/$p.drive" "$p" write
done
pass "six presets: track size, surfaces and zone count exact, head switch, one-cylinder seek and write settle within max(0.15 ms, 15%)"

# Without --write no write at all, and no write settle.
run 0 "$HDDSCOPE" layout -q --points 4 --tracks 20 --cylinders 2 -o "$T/ro.tsv" sim:atlas3
! grep -qP '\twrite\t' "$T/ro.tsv" || fail "a write without --write"
pass "read-only without --write"

# A device that does not rotate: no track found, no revolution claimed, nothing fitted.
truncate -s 512M "$T/flat.img" || fail "truncate $T/flat.img"
run 0 "$HDDSCOPE" layout -q --points 8 -o "$T/flat.tsv" "$T/flat.img"
[ "$(hdr "$T/flat.tsv" revolution_ms)" = none ] || fail "a file: revolution_ms $(hdr "$T/flat.tsv" revolution_ms)"
[ "$(awk -F'\t' '!/^#/ && $4 == "loc" && $2 > 0' "$T/flat.tsv" | wc -l)" = 0 ] || fail "a file: sectors per track found"
pass "a regular file: no rotation found"

# A device too small, an offset beyond the end: refused before anything is measured.
head -c 1048576 /dev/zero >"$T/small.img"
run 2 "$HDDSCOPE" layout -q -o "$T/small.tsv" "$T/small.img"
expect_err "device too small"
run 1 "$HDDSCOPE" layout -q --at 100t -o "$T/far.tsv" sim:atlas3
expect_err "beyond the end"
[ ! -e "$T/small.tsv" ] && [ ! -e "$T/far.tsv" ] || fail "a refused run left a data file"
pass "refusals"
