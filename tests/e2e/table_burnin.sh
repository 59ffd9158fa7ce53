# hddscope table over burn-ins: a two-hour burn-in (virtual clock) of three
# simulated drives, a steady one, one whose write retries grow and one whose
# sectors go bad after an hour.  The whole result directory and its device
# directories given one by one (in another order) give the same rows, the
# worst verdict first, each cell exactly what the drive's device.json holds
# (its last round's slow-write rate and interval in per cent, write p99,
# temperature, the SMART counters' change, the FAIL and WARN reasons), in
# text, md and csv.  Refusals: profiles and burn-ins mixed (usage), a
# device.json of another format, a result directory whose device is gone.
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing (the suite checks tables with it)"

"$HDDSCOPE" sim show atlas3 | grep -v '^write_cache' >"$T/steady.drive" || fail "sim show"
printf 'write_cache = on\nwrite_cache_kb = 32\nsmart = on\n' >>"$T/steady.drive"
{ cat "$T/steady.drive"; echo "write_retry_growth_per_hour = 0.01"; } >"$T/retry.drive"
{ cat "$T/steady.drive"; printf 'bad_sectors_after_hours = 1\nbad_sectors_count = 8\n'; } >"$T/bad.drive"
run 5 "$HDDSCOPE" burnin --write --hours 2 --every 30m -o "$T/host-x" \
	"sim:$T/steady.drive" "sim:$T/retry.drive" "sim:$T/bad.drive"

for f in text md csv; do
	run 0 "$HDDSCOPE" table --format "$f" "$T/host-x"
	cp "$T/out" "$T/table.$f"
done
# The device directories one by one, the steady one first: the same table (the
# operands' order within a verdict).
run 0 "$HDDSCOPE" table --format csv "$T/host-x/01-steady.drive" "$T/host-x/02-retry.drive" "$T/host-x/03-bad.drive"
cmp -s "$T/out" "$T/table.csv" || { diff "$T/out" "$T/table.csv"; fail "device directories: not the result directory's table"; }

python3 - "$T" <<'PY' || fail "table figures"
import csv, json, sys
t = sys.argv[1]
rank = {"FAIL": 0, "WARN": 1, "PASS": 2}
order = json.load(open(t + "/host-x/burnin.json"))["devices"]
docs = [json.load(open("%s/host-x/%s/device.json" % (t, d["directory"]))) for d in order]
docs.sort(key=lambda d: rank.get(d["verdict"], 3))   # stable: the burn-in's order within a verdict
def pct(x):
    return "-" if x is None else "%.3f" % (100 * x)
def want(d):
    last = d["rounds"][-1]
    row = ["host-x/" + d["directory"], d["device"], d["identity"]["model"], d["identity"]["serial"] or "-",
           d["verdict"], str(len(d["rounds"])), pct(last["slow_write_rate"]),
           pct(last["slow_write_rate_lo"]) + "-" + pct(last["slow_write_rate_hi"]),
           "%.3f" % last["write_p99_ms"], "%.0f" % last["temperature_c"]]
    for c in ("reallocated_sectors", "pending_sectors", "offline_uncorrectable", "crc_errors"):
        b, a = d["smart_before"][c], d["smart_after"][c]
        row.append("-" if a is None or b is None else ("+%d" % (a - b) if a > b else "%d" % (a - b)))
    r = [x["text"] for x in d["reasons"] if x["level"] in ("FAIL", "WARN")]
    row.append("; ".join(r) if r else "-")
    return row
rows = [want(d) for d in docs]
# Known truth: the retries and the bad sectors FAIL, the steady drive PASSes last;
# the bad drive's counters moved by the 8 sectors of its model.
assert [r[4] for r in rows] == ["FAIL", "FAIL", "PASS"], [r[4] for r in rows]
assert [r[0] for r in rows] == ["host-x/02-retry.drive", "host-x/03-bad.drive", "host-x/01-steady.drive"], rows
assert rows[1][10:12] == ["+8", "+8"] and rows[0][10:12] == ["0", "0"] and rows[2][14] == "-", rows
assert float(rows[0][6]) > float(rows[2][6]), (rows[0][6], rows[2][6])
got = list(csv.reader(open(t + "/table.csv", newline="")))
assert got[0][:6] == ["where", "device", "model", "serial", "verdict", "rounds"], got[0]
assert got[1:] == rows, (got[1:], rows)
md = [l for l in open(t + "/table.md")][2:]
assert [[c.strip() for c in l.strip()[2:-2].split(" | ")] for l in md] == rows, md
txt = open(t + "/table.text").read().splitlines()
assert txt[0].split()[:6] == ["where", "device", "model", "serial", "verdict", "rounds"], txt[0]
assert len(txt) == 4 and not any(l.endswith(" ") for l in txt), txt
for row, line in zip(rows, txt[1:]):
    pos = 0
    for c in row:
        i = line.find(c, pos)
        assert i >= pos, (line, c)
        pos = i + len(c)
print("3 drives, worst first: %s" % [(r[0], r[4], r[6], r[10]) for r in rows])
PY
pass "table over a burn-in: rows the worst first, every cell what device.json holds, in text, md and csv"

# Refusals.
mkdir -p "$T/p"
run 0 "$HDDSCOPE" bench -q --seed 1 -o "$T/p/bench.tsv" "sim:atlas3"
run 1 "$HDDSCOPE" table "$T/p" "$T/host-x"
expect_err "table: $T/p is a profile and $T/host-x a burn-in result: give profiles or burn-in results, not both"
run 1 "$HDDSCOPE" table "$T/host-x/01-steady.drive" "$T/p"
expect_err "table: $T/host-x/01-steady.drive is a burn-in result and $T/p a profile"
mkdir "$T/odd"
echo '{"format": "hddscope-burnin", "version": 1, "devices": []}' >"$T/odd/device.json"
run 2 "$HDDSCOPE" table "$T/odd"
expect_err "$T/odd/device.json: not a hddscope-burnin-device version 1 document \(format hddscope-burnin, version 1\)"
cp -r "$T/host-x" "$T/host-y"
rm -r "$T/host-y/02-retry.drive"
run 2 "$HDDSCOPE" table "$T/host-y"
expect_err "open $T/host-y/02-retry.drive/device.json: No such file or directory"
pass "table refuses profiles mixed with burn-ins, a device.json of another format, a device gone"
