# The rotational phase of every sample is random: on every preset, the latencies of 400 seek
# reads at one fixed distance are a uniform rotational wait by a Kolmogorov-Smirnov test at
# p > 0.01 (phase_check.bash).
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/phase_check.bash"

for p in $("$HDDSCOPE" sim list | awk 'NR > 1 { print $1 }'); do
	phase_check "$p" "$p"
done
