# hddscope sim import: DiskSim 4.0 models into .drive files.  Errors: a missing file, bad
# syntax (exit 2, FILE:LINE), an unsupported value, an unwritable -o (exit 3); every model of
# DiskSim's valid/ set imported, and its layout checked against DiskSim's own mapping
# (sim_import.samples: LBN -> cylinder, head, sector as DiskSim 4.0's layout_g1 computes them).
. "$(dirname "$0")/common.bash"

# ---- errors ----
run 2 "$HDDSCOPE" sim import "$T/nope.parv"
expect_err "^hddscope: open $T/nope.parv: No such file or directory$"
printf 'disksim_disk D {\n  Model = 3,\n  Bad line\n}\n' >"$T/syntax.diskspecs"
run 2 "$HDDSCOPE" sim import "$T/syntax.diskspecs"
expect_err "^hddscope: $T/syntax.diskspecs:4: expected a parameter name, found '}'$"
printf '# a comment\ndisksim_disk D {\n  Model = source missing.model\n}\n' >"$T/src.diskspecs"
run 2 "$HDDSCOPE" sim import "$T/src.diskspecs"
expect_err "^hddscope: open $T/missing.model: No such file or directory$"
printf 'disksim_disk D { Model = dm_disk M { Number of data surfaces = 2 } }\n' >"$T/nomech.diskspecs"
run 2 "$HDDSCOPE" sim import "$T/nomech.diskspecs"
expect_err "^hddscope: $T/nomech.diskspecs:1: dm_disk: missing 'Layout Model'$"
printf 'disksim_disk A { }\ndisksim_disk B { }\n' >"$T/two.diskspecs"
run 2 "$HDDSCOPE" sim import "$T/two.diskspecs"
expect_err "choose one with --disk NAME$"
mkfifo "$T/fifo.parv"
run 2 "$HDDSCOPE" sim import "$T/fifo.parv"
run 1 "$HDDSCOPE" sim import
run 1 "$HDDSCOPE" sim import a.parv --bogus
pass "import errors: exit 2 with FILE:LINE, usage errors exit 1"

# ---- DiskSim's valid/ set ----
tarball=${HDDSCOPE_SHARED:-$HDDSCOPE_SRC/../shared}/disksim/disksim-4.0-src.tar.xz
[ -f "$tarball" ] || skip "no $tarball"
tar -xJf "$tarball" -C "$T" --wildcards './valid/*' 2>/dev/null || tar -xJf "$tarball" -C "$T" --wildcards 'valid/*' ||
	fail "extract valid/ from $tarball"
V=$T/valid
[ -f "$V/atlas_III.parv" ] || fail "no valid/atlas_III.parv in $tarball"

# An unwritable -o is refused before anything is read: a directory, a FIFO, a missing directory.
run 3 "$HDDSCOPE" sim import "$V/atlas_III.parv" -o "$T"
run 3 "$HDDSCOPE" sim import "$V/atlas_III.parv" -o "$T/fifo.parv"
run 3 "$HDDSCOPE" sim import "$V/atlas_III.parv" -o "$T/no/such/dir.drive"
[ ! -e "$T/no" ] || fail "-o created a directory"
echo keep >"$T/target"
ln -s "$T/target" "$T/link.drive"
run 3 "$HDDSCOPE" sim import "$V/atlas_III.parv" -o "$T/link.drive"
[ "$(cat "$T/target")" = keep ] || fail "-o wrote through a symbolic link"
pass "unwritable -o (a directory, a FIFO, a missing directory, a symbolic link): exit 3"

models=$(awk '!/^#/ { print $1 }' "$HDDSCOPE_SRC/tests/e2e/sim_import.samples" | sort -u)
[ "$(echo "$models" | wc -w)" = 9 ] || fail "sim_import.samples holds $(echo "$models" | wc -w) models, want 9"
for f in $models; do
	run 0 "$HDDSCOPE" sim import "$V/$f" -o "$T/$f.drive"
	"$HDDSCOPE" sim import "$V/$f" | cmp -s - "$T/$f.drive" || fail "$f: stdout and -o differ"
	grep -q '^# not expressed: ' "$T/$f.drive" || fail "$f: no 'not expressed' comments"
	awk -v f="$f" '$1 == f { printf "%.0f\n", $2 * 512 }' "$HDDSCOPE_SRC/tests/e2e/sim_import.samples" >"$T/offs"
	# shellcheck disable=SC2046
	"$HDDSCOPE" sim locate "$T/$f.drive" $(cat "$T/offs") | cut -f 2- >"$T/got" || fail "$f: sim locate"
	awk -v f="$f" -v OFS='\t' '$1 == f { print $2, $3, $4, $5 }' "$HDDSCOPE_SRC/tests/e2e/sim_import.samples" >"$T/want"
	diff "$T/want" "$T/got" >&2 || fail "$f: LBN -> cylinder, head, sector differs from DiskSim"
done
pass "$(echo "$models" | wc -w) DiskSim models imported, $(grep -vc '^#' "$HDDSCOPE_SRC/tests/e2e/sim_import.samples") LBNs placed as DiskSim places them"

# The presets are the importer's output, unchanged, after their header.
for p in atlas3:atlas_III.parv cheetah9lp:cheetah9LP.parv; do
	(cd "$V" && "$HDDSCOPE" sim import "${p#*:}") >"$T/want.drive" || fail "import ${p#*:}"
	sed -n '/^# Imported by /,$p' "$HDDSCOPE_SRC/data/drives/${p%%:*}.drive" | cmp -s - "$T/want.drive" ||
		fail "data/drives/${p%%:*}.drive is not the import of ${p#*:}"
done
pass "atlas3 and cheetah9lp are the imports of DiskSim's models"
