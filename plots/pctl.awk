# Per-key percentiles of a data file, for the charts' median and p99 lines.
#   awk -F'\t' -v key=1 -v val=3 [-v op=read] [-v opcol=4] [-v clscol=5] [-v absolute=1]
#       [-v media=1] [-v symc=C -v bpd=N] -f pctl.awk DATA | sort -g
# Prints: key  count  p50  p90  p99  max   (error samples are left out; with
# media=1 all but media samples).  With symc and bpd the keys are binned, bpd
# bins a decade of 1 + |key| / symc each side of zero (the symmetric log axis
# of plots/axis.gp), and each bin is printed at its centre; hddscope plot
# computes its own bins (src/cmd/plot_data.c) and uses this only without them.
BEGIN { if (opcol == "") opcol = 4; if (clscol == "") clscol = 5 }
/^#/ { next }
{
	if ($clscol == "error") next
	if (media && $clscol != "media") next
	if (op != "" && $opcol != op) next
	k = $key + 0
	if (absolute && k < 0) k = -k
	if (bpd > 0) {
		sg = k < 0 ? -1 : 1
		u = (int(log(1 + sg * k / symc) / log(10) * bpd) + 0.5) / bpd
		k = sg * symc * (exp(u * log(10)) - 1)
	}
	n[k]++
	v[k, n[k]] = $val + 0
}
function pct(k, m, q,   pos, i, f) {
	pos = q * (m - 1) + 1
	i = int(pos)
	f = pos - i
	return i < m ? s[i] + f * (s[i + 1] - s[i]) : s[i]
}
END {
	for (k in n) {
		m = n[k]
		for (i = 1; i <= m; i++) s[i] = v[k, i]
		# Shell sort: groups are small, and awk has no portable sort.
		for (gap = int(m / 2); gap > 0; gap = int(gap / 2))
			for (i = gap + 1; i <= m; i++) {
				t = s[i]
				for (j = i; j > gap && s[j - gap] > t; j -= gap) s[j] = s[j - gap]
				s[j] = t
			}
		printf "%.0f\t%d\t%.6f\t%.6f\t%.6f\t%.6f\n", k, m, pct(k, m, 0.5), pct(k, m, 0.9), pct(k, m, 0.99), s[m]
	}
}
