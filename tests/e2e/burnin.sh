# burnin: on simulated drives whose truth is known, a steady drive passes and each
# kind of degradation over time is flagged with its evidence (write retries that
# grow: the slow-write rate drifts up; sectors that go bad after an hour: SMART's
# reallocated and pending counters move, first in the round that starts at that
# hour); the rounds run on the virtual clock; burnin.json and --prom say the same;
# a regular file is left byte-identical; SIGTERM keeps every finished round and
# --resume goes on from them; the refusals (no --write, a mounted device, a
# device that cannot be opened, a result directory in use) write nothing.
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing"

# atlas3 with a write-back cache that takes writes anywhere (as verdict.sh has it:
# write retries stand out) and SMART; the faults on top of it.
"$HDDSCOPE" sim show atlas3 | grep -v '^write_cache' >"$T/steady.drive" || fail "sim show"
printf 'write_cache = on\nwrite_cache_kb = 32\nsmart = on\n' >>"$T/steady.drive"
{ cat "$T/steady.drive"; echo "write_retry_growth_per_hour = 0.01"; } >"$T/retry.drive"
{ cat "$T/steady.drive"; printf 'bad_sectors_after_hours = 1\nbad_sectors_count = 8\n'; } >"$T/bad.drive"

# Four hours, a round every 30 minutes: rounds start at 0, 0.5, ... 3.5 h.
run 5 "$HDDSCOPE" burnin --write --hours 4 --every 30m -o "$T/b" --prom "$T/b.prom" \
	"sim:$T/steady.drive" "sim:$T/retry.drive" "sim:$T/bad.drive"
[ -s "$T/err" ] && { cat "$T/err"; fail "stderr not empty without a terminal"; }
grep -qx "sim:$T/steady.drive: PASS (8 rounds, 4.00 h)" "$T/out" || { cat "$T/out"; fail "stdout: steady verdict"; }
grep -qx "sim:$T/bad.drive: FAIL (8 rounds, 4.00 h)" "$T/out" || fail "stdout: bad verdict"
grep -qx '  FAIL  SMART reallocated_sectors moved: 0 before, 8 after (+8; first in round 3)' "$T/out" ||
	fail "stdout: the evidence"
python3 - "$T/b/burnin.json" <<'EOF' || fail "burnin.json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "hddscope-burnin" and d["version"] == 1 and d["complete"] is True, d["format"]
assert d["verdict"] == "FAIL", d["verdict"]
dev = {x["device"].rsplit("/", 1)[-1]: x for x in d["devices"]}
for name, x in dev.items():
    r = x["rounds"]
    assert len(r) == 8, (name, len(r))
    # The virtual clock: every round starts on the half hour.
    assert [q["start_s"] for q in r] == [1800.0 * k for k in range(8)], (name, [q["start_s"] for q in r])
    for q in r:
        assert q["complete"] and q["writes"] > 1500 and q["errors"] == 0, (name, q["round"])
        assert q["slow_write_rate_lo"] <= q["slow_write_rate"] <= q["slow_write_rate_hi"]
        assert abs(q["slow_write_rate"] - q["slow_writes"] / q["writes"]) < 1e-9
        # atlas3 turns at 7200 rpm: slow writes are counted by its 8.333 ms.
        assert abs(q["revolution_ms"] - 60000 / 7200) < 1e-9 and q["revolution_assumed"] is False
        assert len(q["by_distance"]) == 48 and 5 < q["write_p50_ms"] < q["write_p99_ms"] < 30
        assert q["smart"]["available"] and q["temperature_c"] == 35
    assert x["smart_before"]["reallocated_sectors"] == 0
def reasons(name, level):
    return [q["text"] for q in dev[name]["reasons"] if q["level"] == level]
s = dev["steady.drive"]
assert s["verdict"] == "PASS" and not reasons("steady.drive", "FAIL"), reasons("steady.drive", "FAIL")
# A steady drive's slow writes are the few that cross a track: well under the unstable 0.8%.
assert all(q["slow_write_rate"] < 0.008 for q in s["rounds"]), [q["slow_write_rate"] for q in s["rounds"]]
p99 = [q["write_p99_ms"] for q in s["rounds"]]
assert max(p99) / min(p99) < 1.1, p99
r = dev["retry.drive"]
assert r["verdict"] == "FAIL"
assert any(t.startswith("slow-write rate drifted up") for t in reasons("retry.drive", "FAIL")), reasons("retry.drive", "FAIL")
assert not any("SMART" in t for t in reasons("retry.drive", "FAIL"))
# One extra revolution for a share of writes that grows 1% an hour: the last
# round (3.5-3.8 h, about 3.6% retried, each one slow only when the retry lands
# past its distance's p10 by 1.1 revolutions) well above the first.
assert r["rounds"][-1]["slow_write_rate"] > 0.02 > 0.006 > r["rounds"][0]["slow_write_rate"], \
    [q["slow_write_rate"] for q in r["rounds"]]
b = dev["bad.drive"]
f = reasons("bad.drive", "FAIL")
assert b["verdict"] == "FAIL" and len(f) == 2, f
assert "SMART reallocated_sectors moved: 0 before, 8 after (+8; first in round 3)" in f, f
assert "SMART pending_sectors moved: 0 before, 8 after (+8; first in round 3)" in f, f
assert [q["smart"]["reallocated_sectors"] for q in b["rounds"]] == [0, 0, 8, 8, 8, 8, 8, 8]
assert b["smart_after"]["pending_sectors"] == 8
EOF
pass "steady PASS; growing write retries and sectors gone bad after an hour FAIL, with evidence"

# Every round's data file is there and finished.
[ "$(ls "$T"/b/0[123]-*/round-*.tsv | wc -l)" = 24 ] || fail "round files"
grep -L '^# complete: yes' "$T"/b/0*/round-*.tsv | grep -q . && fail "a round file not complete"
pass "24 round data files, complete"

# The metrics: every line of the exposition format, the same figures as burnin.json.
python3 - "$T/b.prom" "$T/b/burnin.json" <<'EOF' || fail "--prom"
import json, re, sys
line = re.compile(r'^([a-z_][a-z_0-9]*)\{((?:[a-z]+="(?:[^"\\]|\\.)*",?)+)\} (NaN|[-+0-9.eE]+)$')
m = {}
for l in open(sys.argv[1]):
    l = l.rstrip("\n")
    if l.startswith("# HELP ") or l.startswith("# TYPE "):
        continue
    g = line.match(l)
    assert g, l
    labels = dict(re.findall(r'([a-z]+)="((?:[^"\\]|\\.)*)"', g.group(2)))
    m[(g.group(1), labels["device"].rsplit("/", 1)[-1], labels.get("counter"))] = float(g.group(3))
    assert labels["model"] == "QUANTUM_QM39100TD-SW" and "serial" in labels
assert m[("hddscope_verdict", "steady.drive", None)] == 0
assert m[("hddscope_verdict", "retry.drive", None)] == 2
assert m[("hddscope_verdict", "bad.drive", None)] == 2
assert m[("hddscope_burnin_smart_delta", "bad.drive", "reallocated_sectors")] == 8
assert m[("hddscope_burnin_smart_delta", "bad.drive", "pending_sectors")] == 8
assert m[("hddscope_burnin_smart_delta", "steady.drive", "crc_errors")] == 0
d = {x["device"].rsplit("/", 1)[-1]: x for x in json.load(open(sys.argv[2]))["devices"]}
for n, x in d.items():
    last = x["rounds"][-1]
    assert m[("hddscope_burnin_rounds", n, None)] == 8
    assert abs(m[("hddscope_burnin_slow_write_ratio", n, None)] - last["slow_write_rate"]) < 1e-8
    assert abs(m[("hddscope_burnin_write_p99_seconds", n, None)] - last["write_p99_ms"] / 1e3) < 1e-9
EOF
ls "$T" | grep -q 'tmp' && fail "a temporary file left"
pass "--prom: the exposition format, the figures of burnin.json"

# Error rates over seeds (the drive's and the plan's): 12 steady drives all
# pass, 12 with growing write retries all fail on the slow-write drift.
devs=()
for i in $(seq 12); do devs+=("sim:$T/steady.drive,seed=$i" "sim:$T/retry.drive,seed=$i"); done
run 5 "$HDDSCOPE" burnin --write -q --hours 4 --every 30m --seed 7 -o "$T/seeds" "${devs[@]}"
python3 - "$T/seeds/burnin.json" <<'EOF' || fail "seeds"
import json, sys
d = json.load(open(sys.argv[1]))["devices"]
steady = [x for x in d if "steady" in x["device"]]
retry = [x for x in d if "retry" in x["device"]]
assert len(steady) == len(retry) == 12
bad = [(x["device"], [r["text"] for r in x["reasons"] if r["level"] != "PASS" and r["level"] != "INFO"])
       for x in steady if x["verdict"] != "PASS"]
assert not bad, bad
missed = [x["device"] for x in retry if x["verdict"] != "FAIL" or
          not any(r["rule"] == "burnin_slow_drift" and r["level"] == "FAIL" for r in x["reasons"])]
assert not missed, missed
EOF
pass "12 seeds: every steady drive PASS, every drive with growing retries FAIL"

# A regular file: every byte as it was; one round is too few to compare (WARN),
# and a file has no SMART.
scratch_image $((16 << 20))
run 4 "$HDDSCOPE" burnin --write --rounds 1 --points 40 --reps 2 -o "$T/f" "$img"
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "the file changed"
python3 - "$T/f/burnin.json" <<'EOF' || fail "file: burnin.json"
import json, sys
x = json.load(open(sys.argv[1]))["devices"][0]
assert x["verdict"] == "WARN" and len(x["rounds"]) == 1 and x["rounds"][0]["writes"] > 0, x["verdict"]
t = [q["text"] for q in x["reasons"]]
assert any(s.startswith("SMART not available") for s in t), t
assert "1 round: drift needs two rounds or more to compare" in t, t
assert x["rounds"][0]["revolution_assumed"] is True
assert any(s.startswith("the drive gives no rpm: slow writes counted by an assumed 7200 rpm") for s in t), t
EOF
pass "a regular file byte-identical after its burn-in"

# SIGTERM: the run stops with 143, burnin.json says complete false, every
# finished round is kept; --resume goes on and the rounds kept stay as they were.
"$HDDSCOPE" burnin --write -q --hours 2 --every 2m -o "$T/r" --prom "$T/r.prom" "sim:$T/steady.drive" \
	"sim:$T/bad.drive" >/dev/null 2>"$T/err" &
pid=$!
PIDS+=("$pid")
started "$pid" "$T/r/01-*/round-0010.tsv" && started "$pid" "$T/r/02-*/round-0010.tsv" ||
	fail "resume: no tenth round"
# --prom while it runs (rewritten at most once a second, so perhaps from the
# first round of the first drive only): rounds finished so far, not complete.
started "$pid" "$T/r.prom" || fail "no --prom while running"
cp "$T/r.prom" "$T/live.prom"
[ "$(grep -c '^hddscope_burnin_complete{.*} 0$' "$T/live.prom")" = 2 ] || fail "--prom while running: complete"
awk '/^hddscope_burnin_rounds\{/ && $2 >= 1 { n++ } END { exit n < 1 }' "$T/live.prom" ||
	fail "--prom while running: rounds"
kill -TERM "$pid"
ended "$pid" 143 "burnin under SIGTERM"
grep -q "^hddscope: interrupted by SIGTERM: [0-9]* finished rounds kept in $T/r (complete: no); --resume $T/r goes on\$" \
	"$T/err" || { cat "$T/err"; fail "SIGTERM: message"; }
python3 - "$T/r/burnin.json" "$T/kept.json" <<'EOF' || fail "interrupted burnin.json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False
for x in d["devices"]:
    assert x["complete"] is False and len(x["rounds"]) >= 9, len(x["rounds"])
    assert [q["round"] for q in x["rounds"]] == list(range(1, len(x["rounds"]) + 1))
json.dump({x["device"]: x["rounds"] for x in d["devices"]}, open(sys.argv[2], "w"))
EOF
run 1 "$HDDSCOPE" burnin --write --resume "$T/r" --hours 3
grep -q 'goes on with the plan saved there' "$T/err" || fail "resume with a new plan: message"
run 5 "$HDDSCOPE" burnin --write -q --resume "$T/r"
python3 - "$T/r/burnin.json" "$T/kept.json" <<'EOF' || fail "resumed burnin.json"
import json, sys
d = json.load(open(sys.argv[1]))
kept = json.load(open(sys.argv[2]))
assert d["complete"] is True
for x in d["devices"]:
    r, k = x["rounds"], kept[x["device"]]
    assert r[:len(k)] == k, x["device"]
    assert [q["round"] for q in r] == list(range(1, len(r) + 1))
    # A round every two minutes (one takes about 108 s) for two hours: the
    # round cut short is taken again when it was due, the rest on time.
    assert [q["start_s"] for q in r] == [120.0 * k for k in range(60)], [q["start_s"] for q in r][len(k) - 2:]
    assert x["complete"] is True and x["verdict"] == ("PASS" if "steady" in x["device"] else "FAIL")
EOF
pass "SIGTERM keeps every finished round; --resume goes on to the end"

# Refusals write nothing.
run 2 "$HDDSCOPE" burnin --hours 1 -o "$T/no" "sim:$T/steady.drive"
grep -q 'add --write to allow it' "$T/err" || fail "no --write: message"
[ -e "$T/no" ] && fail "no --write: a result directory"
run 1 "$HDDSCOPE" burnin --write --hours 1 --minutes 5 -o "$T/no" sim:atlas3
run 1 "$HDDSCOPE" burnin --write -o "$T/no"
run 2 "$HDDSCOPE" burnin --write -o "$T/no" sim:atlas3 "sim:$T/none.drive"
grep -q "none.drive" "$T/err" || fail "unknown device: message names it"
[ -e "$T/no" ] && fail "refused device: a result directory"
run 2 "$HDDSCOPE" burnin --write -o "$T/b" sim:atlas3
grep -q 'holds a burn-in already; --resume' "$T/err" || fail "result directory in use: message"
mkdir "$T/full" && : >"$T/full/x" || fail "mkdir"
run 2 "$HDDSCOPE" burnin --write -o "$T/full" sim:atlas3
grep -q "$T/full: not empty" "$T/err" || fail "a directory not empty: message"
[ "$(ls "$T/full")" = x ] || fail "a directory not empty: written into"
run 1 "$HDDSCOPE" burnin --write sim:atlas3 sim:atlas3 -o "$T/no"
grep -q 'named twice' "$T/err" || fail "a device named twice"
pass "refused: no --write, --hours with --minutes, no device, a device that cannot be opened, a used or full directory"

if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null; then
	random_file "$T/m.img" $((16 << 20))
	mkfs.ext4 -q -F "$T/m.img" >/dev/null 2>&1 || fail "mkfs.ext4"
	if attach_loop loop "$T/m.img" && mkdir "$T/mnt" && mount "$loop" "$T/mnt" 2>/dev/null; then
		MOUNTS+=("$T/mnt")
		run 2 "$HDDSCOPE" burnin --write --minutes 1 -o "$T/no" "$loop"
		grep -q "$loop" "$T/err" || fail "mounted device: message does not name it"
		[ -e "$T/no" ] && fail "mounted device: a result directory"
		pass "a mounted device refused"
		umount "$T/mnt" || fail "umount"
		MOUNTS=()
		# Unmounted, the same loop device is burnt in and left byte for byte as it was.
		sum1=$(sha256sum <"$loop")
		run 4 "$HDDSCOPE" burnin --write --rounds 1 --points 40 --reps 2 -o "$T/l" "$loop"
		[ "$(sha256sum <"$loop")" = "$sum1" ] || fail "the loop device changed"
		grep -q '^# complete: yes' "$T"/l/01-*/round-0001.tsv || fail "loop: round not complete"
		pass "a loop device burnt in, byte-identical"
	else
		echo "note: no loop device mount here; the mounted-device refusal not checked"
	fi
fi
