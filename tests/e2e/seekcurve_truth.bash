# Sourced by tests/bench/run and the end-to-end tests that hold a fitted seek
# curve against its model.
#
# seekcurve_truth HDDSCOPE MODEL DIR WORK: for each point of DIR/seekcurve.tsv
# (seek time against signed distance from the profile's reference), prints
# "distance_bytes fitted_ms model_ms": the model's seek time for the cylinders
# that distance spans ('hddscope sim locate', 'hddscope sim seek'), the move
# taken centred on the reference and kept inside the drive; 0 where both ends
# lie on one cylinder.  WORK is a scratch directory.
seekcurve_truth() {
	local hd=$1 model=$2 f=$3/seekcurve.tsv w=$4 ref cap
	ref=$(sed -n -e '/^# columns:/q' -e 's/^# reference_bytes: //p' "$f")
	cap=$(sed -n -e '/^# columns:/q' -e 's/^# capacity_bytes: //p' "$f")
	awk -F'\t' -v r="$ref" -v z="$cap" '!/^#/ {
		d = $1 < 0 ? -$1 : $1; a = r - d / 2
		if (a + d > z - 4096) a = z - 4096 - d
		if (a < 0) a = 0
		a = int(a / 512) * 512; b = a + d < z - 512 ? a + d : z - 512
		printf "%.0f %.0f %s %s\n", a, b, $2, $1 }' "$f" >"$w/cm"
	"$hd" sim locate "$model" $(awk '{ print $1 }' "$w/cm") | cut -f3 >"$w/ca"
	"$hd" sim locate "$model" $(awk '{ print $2 }' "$w/cm") | cut -f3 >"$w/cb"
	paste "$w/ca" "$w/cb" | awk '{ d = $2 - $1; print d < 0 ? -d : d }' >"$w/cc"
	awk '$1 > 0' "$w/cc" | sort -un >"$w/ccu"
	: >"$w/cs"
	if [ -s "$w/ccu" ]; then "$hd" sim seek "$model" $(cat "$w/ccu") >"$w/cs"; fi
	paste "$w/cc" <(awk '{ print $3, $4 }' "$w/cm") |
		awk -F'\t' 'FILENAME == ARGV[1] { t[$1] = $2; next }
			{ split($2, v, " "); printf "%s %s %s\n", v[2], v[1], ($1 > 0 ? t[$1] : 0) }' "$w/cs" -
}
