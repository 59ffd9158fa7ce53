# burnin --prom under node_exporter's textfile collector: prometheus-node-exporter
# (the Debian package) serves the file burnin wrote on 127.0.0.1, without a
# scrape error, and its /metrics carries every drive's verdict (a steady drive 0,
# one whose sectors go bad 2) and its SMART deltas (8 reallocated).  Skips where
# node_exporter is not installed.
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing"
ne=$(command -v prometheus-node-exporter || command -v node_exporter) || skip "no prometheus-node-exporter"

"$HDDSCOPE" sim show atlas3 | grep -v '^write_cache' >"$T/steady.drive" || fail "sim show"
printf 'write_cache = on\nwrite_cache_kb = 32\nsmart = on\n' >>"$T/steady.drive"
{ cat "$T/steady.drive"; printf 'bad_sectors_after_hours = 1\nbad_sectors_count = 8\n'; } >"$T/bad.drive"
mkdir "$T/textfile" || fail "mkdir"
run 5 "$HDDSCOPE" burnin --write -q --hours 2 --every 30m -o "$T/b" --prom "$T/textfile/hddscope.prom" \
	"sim:$T/steady.drive" "sim:$T/bad.drive"
[ "$(ls "$T/textfile")" = hddscope.prom ] || fail "the textfile directory holds more than the metrics"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') ||
	fail "no free port"
background "$ne" --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$T/textfile" --web.listen-address="127.0.0.1:$port" >"$T/ne.log" 2>&1
ok=
for _ in $(seq 300); do
	if python3 - "$port" >"$T/metrics" 2>/dev/null <<'EOF'; then ok=1; break; fi
import sys, urllib.request
print(urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=5).read().decode())
EOF
	kill -0 "$pid" 2>/dev/null || { cat "$T/ne.log" >&2; fail "node_exporter ended"; }
	sleep 0.1
done
[ -n "$ok" ] || { cat "$T/ne.log" >&2; fail "no /metrics on 127.0.0.1:$port in 30 s"; }

python3 - "$T/metrics" <<'EOF' || { cat "$T/ne.log" >&2; fail "/metrics"; }
import re, sys
m = {}
for l in open(sys.argv[1]):
    g = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$', l.strip())
    if not g:
        continue
    labels = dict(re.findall(r'([a-z_]+)="((?:[^"\\]|\\.)*)"', g.group(2) or ""))
    dev = labels.get("device", "").rsplit("/", 1)[-1]
    m[(g.group(1), dev, labels.get("counter"))] = (float(g.group(3)), labels)
assert m[("node_textfile_scrape_error", "", None)][0] == 0, "scrape error"
v, labels = m[("hddscope_verdict", "steady.drive", None)]
assert v == 0 and labels["model"] == "QUANTUM_QM39100TD-SW" and "serial" in labels, labels
assert m[("hddscope_verdict", "bad.drive", None)][0] == 2
assert m[("hddscope_burnin_smart_delta", "bad.drive", "reallocated_sectors")][0] == 8
assert m[("hddscope_burnin_smart_delta", "steady.drive", "pending_sectors")][0] == 0
assert m[("hddscope_burnin_rounds", "bad.drive", None)][0] == 4
assert 0 < m[("hddscope_burnin_write_p99_seconds", "steady.drive", None)][0] < 0.03
EOF
pass "node_exporter serves the verdicts and SMART deltas burnin wrote"
