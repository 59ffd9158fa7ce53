# hddscope layout on DiskSim 4.0's validated models (valid/ of ../shared/disksim's tarball,
# imported with sim import), fitted, against each model's truth: bytes per track, surfaces and
# the number of zones exactly, head switch and one-cylinder seek within max(0.15 ms, 15%)
# (layout_check.bash).  Skipped (77) without the tarball.
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/layout_check.bash"

tarball=${HDDSCOPE_SHARED:-$HDDSCOPE_SRC/../shared}/disksim/disksim-4.0-src.tar.xz
[ -f "$tarball" ] || skip "no $tarball"
tar -xJf "$tarball" -C "$T" --wildcards './valid/*' 2>/dev/null || tar -xJf "$tarball" -C "$T" --wildcards 'valid/*' ||
	fail "extract valid/ from $tarball"
V=$T/valid
n=0
for f in hp_c2247a.parv dec_rz26.parv hp_c2249a.diskspecs hp_c2490a.parv hp_c3323a.parv st41601n.parv; do
	[ -f "$V/$f" ] || fail "no valid/$f in $tarball"
	run 0 "$HDDSCOPE" sim import "$V/$f" -o "$T/${f%%.*}.drive"
	layout_check "$T/${f%%.*}.drive" "${f%%.*}"
	n=$((n + 1))
done
pass "$n DiskSim models: track size, surfaces and zone count exact, head switch and one-cylinder seek within max(0.15 ms, 15%)"
