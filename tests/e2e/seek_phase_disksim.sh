# The rotational phase of every sample is random on DiskSim 4.0's validated models too (valid/
# of ../shared/disksim's tarball, imported with sim import), among them drives that disconnect
# from the host until a water mark of the read is in the buffer: the latencies of 400 seek
# reads at one fixed distance are a uniform rotational wait by a Kolmogorov-Smirnov test at
# p > 0.01 (phase_check.bash).  Skipped (77) without the tarball.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/phase_check.bash"

MODELS=(hp_c2247a hp_c2490a dec_rz26 hp_c3323a)
disksim_import "${MODELS[@]}"
for m in "${MODELS[@]}"; do
	phase_check "$T/$m.drive" "$m"
done
