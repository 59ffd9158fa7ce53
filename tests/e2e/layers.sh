# The layers of src/README.md hold: every #include "hddscope/X.h" in
# src/LAYER/*.c and in the headers a layer owns names a header of its own
# layer or of a layer it may use, so no code calls upward.
. "$(dirname "$0")/common.bash"

# The table of src/README.md: header owners, then what each layer may include.
declare -A owner=(
	[util]=lib [stats]=lib [fsutil]=lib [msg]=lib [ioreq]=lib
	[datafile]=format [json]=format [profile_files]=format
	[sim]=sim [preset]=sim [sim_import]=sim
	[dev]=dev [sysfs]=dev [cachectl]=dev [identity]=dev [fileguard]=dev [emu]=dev [cpuidle]=dev
	[fit]=analysis [compare]=analysis [evidence]=analysis [verdict]=analysis [burnin]=analysis
	[probe]=probe [session]=probe [cli]=probe [opt]=probe [probes]=probe
	[cmd]=cmd [plot]=cmd
)
declare -A may=(
	[lib]="lib"
	[format]="format lib"
	[sim]="sim lib"
	[dev]="dev sim lib"
	[analysis]="analysis format sim lib"
	[probe]="probe dev format lib"
	[cmd]="cmd probe analysis dev sim format lib"
)

S=$HDDSCOPE_SRC
bad=0
checked=0
# check FILE LAYER: every project include of FILE is allowed for LAYER.
check() {
	local f=$1 layer=$2 h o
	while read -r h; do
		o=${owner[$h]:-}
		if [ -z "$o" ]; then
			echo "$f: includes hddscope/$h.h, which src/README.md does not place" >&2
			bad=$((bad + 1))
		elif [[ " ${may[$layer]} " != *" $o "* ]]; then
			echo "$f ($layer) includes hddscope/$h.h ($o): an upward include" >&2
			bad=$((bad + 1))
		fi
		checked=$((checked + 1))
	done < <(sed -n 's/^#include "hddscope\/\([a-z_]*\)\.h".*/\1/p' "$f")
}

for layer in "${!may[@]}"; do
	[ -d "$S/src/$layer" ] || fail "src/$layer is missing"
	for f in "$S/src/$layer"/*.c; do
		check "$f" "$layer"
	done
done
for h in "$S"/include/hddscope/*.h; do
	n=$(basename "$h" .h)
	[ -n "${owner[$n]:-}" ] || { echo "$h: no layer in src/README.md" >&2; bad=$((bad + 1)); continue; }
	check "$h" "${owner[$n]}"
done
# Every source file lives in a layer's folder (or is main.c).
for f in "$S"/src/*.c; do
	[ "$(basename "$f")" = main.c ] || { echo "$f: not in a layer's folder" >&2; bad=$((bad + 1)); }
done
[ "$bad" = 0 ] || fail "$bad include(s) break the layers of src/README.md"
pass "$checked includes follow the layers"
