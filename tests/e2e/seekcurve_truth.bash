# Sourced by tests/bench/run and the end-to-end tests that hold a fitted seek
# curve against its model.
#
# seekcurve_truth HDDSCOPE MODEL DIR WORK: for each point of DIR/seekcurve.tsv
# (seek time against signed distance from the profile's reference), prints
# "distance_bytes fitted_ms model_ms": the model's seek time for the cylinders
# that distance spans ('hddscope sim locate', 'hddscope sim seek'), the move
# taken centred on the reference and kept inside the drive; where both ends
# lie on one cylinder, the model's head switch if they lie on two surfaces
# (as the simulator positions), else 0.  WORK is a scratch directory.
seekcurve_truth() {
	local hd=$1 model=$2 f=$3/seekcurve.tsv w=$4 ref cap hs
	hs=$("$hd" sim info "$model" | sed -n 's/^head_switch_ms: //p')
	ref=$(sed -n -e '/^# columns:/q' -e 's/^# reference_bytes: //p' "$f")
	cap=$(sed -n -e '/^# columns:/q' -e 's/^# capacity_bytes: //p' "$f")
	awk -F'\t' -v r="$ref" -v z="$cap" '!/^#/ {
		d = $1 < 0 ? -$1 : $1; a = r - d / 2
		if (a + d > z - 4096) a = z - 4096 - d
		if (a < 0) a = 0
		a = int(a / 512) * 512; b = a + d < z - 512 ? a + d : z - 512
		printf "%.0f %.0f %s %s\n", a, b, $2, $1 }' "$f" >"$w/cm"
	"$hd" sim locate "$model" $(awk '{ print $1 }' "$w/cm") | cut -f3,4 >"$w/ca"
	"$hd" sim locate "$model" $(awk '{ print $2 }' "$w/cm") | cut -f3,4 >"$w/cb"
	# Cylinders apart, and whether the surfaces differ.
	paste "$w/ca" "$w/cb" | awk '{ d = $3 - $1; print (d < 0 ? -d : d), ($2 != $4) }' >"$w/cc"
	awk '$1 > 0 { print $1 }' "$w/cc" | sort -un >"$w/ccu"
	: >"$w/cs"
	if [ -s "$w/ccu" ]; then "$hd" sim seek "$model" $(cat "$w/ccu") >"$w/cs"; fi
	paste "$w/cc" <(awk '{ print $3, $4 }' "$w/cm") |
		awk -F'\t' -v hs="${hs:-0}" 'FILENAME == ARGV[1] { t[$1] = $2; next }
			{ split($1, c, " "); split($2, v, " ")
			  printf "%s %s %s\n", v[2], v[1], (c[1] > 0 ? t[c[1]] : c[2] ? hs : 0) }' "$w/cs" -
}
