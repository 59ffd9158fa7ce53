# data/ansible's playbook, run by ansible-playbook against two inventory hosts on
# this machine (local connection, each with its own install and result
# directories and its own simulated drives): hddscope is installed on each, each
# burns in its drives, the controller gets every host's results and its
# fleet.tsv and fleet.json say every drive's verdict, the worst first: host a's
# steady drive PASS, host b's drive whose sectors go bad FAIL with the evidence,
# b's steady one PASS.  hddscope table and report run where the binary has them:
# table.txt lists every drive with its verdict of fleet.json, the worst first, and
# report.html names every drive, its verdict and reasons, and the verdict counts.
# Run again, the playbook resumes the finished burn-ins and changes no verdict.
# Skips where ansible-playbook is not installed.
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing"
command -v ansible-playbook >/dev/null || skip "no ansible-playbook (Debian: ansible)"

"$HDDSCOPE" sim show atlas3 | grep -v '^write_cache' >"$T/steady.drive" || fail "sim show"
printf 'write_cache = on\nwrite_cache_kb = 32\nsmart = on\n' >>"$T/steady.drive"
{ cat "$T/steady.drive"; printf 'bad_sectors_after_hours = 1\nbad_sectors_count = 8\n'; } >"$T/bad.drive"

# The role's choice of drives, from lsblk's JSON: rotating whole disks that
# nothing uses (the system disk, a disk with swap or a RAID member, an SSD, a
# partition and a loop device are not chosen), narrowed by serial or model.
sel=$HDDSCOPE_SRC/data/ansible/roles/hddscope_burnin/files/select_drives.py
cat >"$T/lsblk.json" <<'EOF'
{"blockdevices": [
 {"name": "sda", "path": "/dev/sda", "type": "disk", "rota": true, "serial": "S1", "model": "M1", "fstype": null, "mountpoint": null,
  "children": [{"name": "sda1", "path": "/dev/sda1", "type": "part", "rota": true, "fstype": "ext4", "mountpoint": "/"}]},
 {"name": "sdb", "path": "/dev/sdb", "type": "disk", "rota": true, "serial": "S2", "model": "M2", "fstype": null, "mountpoint": null},
 {"name": "sdc", "path": "/dev/sdc", "type": "disk", "rota": false, "serial": "S3", "model": "M2", "fstype": null, "mountpoint": null},
 {"name": "sdd", "path": "/dev/sdd", "type": "disk", "rota": true, "serial": "S4", "model": "M2", "fstype": null, "mountpoint": null,
  "children": [{"name": "sdd1", "path": "/dev/sdd1", "type": "part", "rota": true, "fstype": "swap", "mountpoint": null}]},
 {"name": "sde", "path": "/dev/sde", "type": "disk", "rota": true, "serial": "S5", "model": "M3", "fstype": "linux_raid_member", "mountpoint": null},
 {"name": "sdf", "path": "/dev/sdf", "type": "disk", "rota": true, "serial": "S6", "model": "M3", "fstype": null, "mountpoint": null,
  "children": [{"name": "sdf1", "path": "/dev/sdf1", "type": "part", "rota": true, "fstype": null, "mountpoint": null}]},
 {"name": "loop0", "path": "/dev/loop0", "type": "loop", "rota": true, "serial": null, "model": null, "fstype": null, "mountpoint": null}
]}
EOF
[ "$(python3 "$sel" --lsblk "$T/lsblk.json")" = '["/dev/sdb", "/dev/sdf"]' ] || fail "select_drives: all"
[ "$(python3 "$sel" --lsblk "$T/lsblk.json" --serials S6,S1)" = '["/dev/sdf"]' ] || fail "select_drives: by serial"
[ "$(python3 "$sel" --lsblk "$T/lsblk.json" --models M2)" = '["/dev/sdb"]' ] || fail "select_drives: by model"
pass "the role chooses rotating disks nobody uses, by serial, by model"

py=$(command -v python3)
cat >"$T/inventory" <<EOF
[burnin]
host-a ansible_connection=local ansible_python_interpreter=$py hddscope_install_dir=$T/a/bin hddscope_result_dir=$T/a/results/burnin hddscope_prom_file=$T/a/hddscope.prom burnin_drives='["sim:$T/steady.drive"]'
host-b ansible_connection=local ansible_python_interpreter=$py hddscope_install_dir=$T/b/bin hddscope_result_dir=$T/b/results/burnin burnin_drives='["sim:$T/bad.drive","sim:$T/steady.drive"]'

[burnin:vars]
hddscope_binary_src=$HDDSCOPE
burnin_hours=2
burnin_every=30m
EOF
# No ansible.cfg of the working directory or the user: only these settings.
printf "[defaults]\n" >"$T/ansible.cfg"
export ANSIBLE_CONFIG=$T/ansible.cfg
export ANSIBLE_LOCAL_TEMP=$T/ansible-local ANSIBLE_REMOTE_TEMP=$T/ansible-remote ANSIBLE_NOCOLOR=1
# Ansible needs a UTF-8 locale; the suite runs under C.
export LC_ALL=C.UTF-8 LANG=C.UTF-8
export ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_HOST_KEY_CHECKING=0 ANSIBLE_ASYNC_DIR=$T/ansible-async HOME=$T
mkdir "$T/fleet" || fail "mkdir"
playbook() {
	ansible-playbook -i "$T/inventory" "$HDDSCOPE_SRC/data/ansible/burnin.yml" \
		-e "fleet_dir=$T/fleet" -e "hddscope_controller_bin=$HDDSCOPE" >"$T/play.log" 2>&1 ||
		{ cat "$T/play.log" >&2; fail "ansible-playbook"; }
}
playbook
for h in a b; do
	cmp -s "$HDDSCOPE" "$T/$h/bin/hddscope" || fail "host $h: hddscope not installed"
	[ -s "$T/fleet/host-$h/burnin.json" ] || fail "host $h: results not fetched"
done
[ -s "$T/a/hddscope.prom" ] && [ ! -e "$T/b/hddscope.prom" ] || fail "the metrics file of host a only"

python3 - "$T/fleet" <<'EOF' || { cat "$T/play.log" >&2; fail "fleet results"; }
import csv, json, os, sys
fleet = sys.argv[1]
a = json.load(open(os.path.join(fleet, "host-a", "burnin.json")))
b = json.load(open(os.path.join(fleet, "host-b", "burnin.json")))
assert a["verdict"] == "PASS" and a["complete"] and len(a["devices"]) == 1, a["verdict"]
assert b["verdict"] == "FAIL" and b["complete"] and len(b["devices"]) == 2, b["verdict"]
for d in a["devices"] + b["devices"]:
    # Two hours, a round every half hour, on each drive's virtual clock.
    assert [r["start_s"] for r in d["rounds"]] == [0, 1800, 3600, 5400], d["device"]
    assert os.path.exists(os.path.join(fleet, "host-a" if d in a["devices"] else "host-b", d["directory"],
                                       "round-0004.tsv"))
rows = list(csv.DictReader(open(os.path.join(fleet, "fleet.tsv")), delimiter="\t"))
got = [(r["host"], r["device"].rsplit("/", 1)[-1], r["verdict"]) for r in rows]
assert got == [("host-b", "bad.drive", "FAIL"), ("host-a", "steady.drive", "PASS"),
               ("host-b", "steady.drive", "PASS")], got
assert "SMART reallocated_sectors moved: 0 before, 8 after (+8; first in round 3)" in rows[0]["reasons"], rows[0]
assert rows[0]["rounds"] == "4" and float(rows[1]["slow_write_rate"]) < 0.008
j = json.load(open(os.path.join(fleet, "fleet.json")))
assert j["format"] == "hddscope-fleet" and [d["verdict"] for d in j["drives"]] == ["FAIL", "PASS", "PASS"]
EOF
pass "two hosts: installed, burnt in, fetched; fleet.tsv and fleet.json, the worst drive first"

if "$HDDSCOPE" table --help >/dev/null 2>&1; then
	[ -s "$T/fleet/table.txt" ] && [ -s "$T/fleet/report.html" ] || fail "table and report not run"
	python3 - "$T/fleet" <<'EOF' || fail "table.txt and report.html"
import html, json, os, re, sys
fleet = sys.argv[1]
drives = json.load(open(os.path.join(fleet, "fleet.json")))["drives"]
lines = open(os.path.join(fleet, "table.txt")).read().splitlines()
assert lines[0].split()[:5] == ["where", "device", "model", "serial", "verdict"], lines[0]
assert len(lines) == 1 + len(drives), lines
# Row by row, the worst first as fleet.json has them: where (host/NN-NAME),
# device and verdict; the FAIL drive's reasons after its figures.
for d, l in zip(drives, lines[1:]):
    f = l.split()
    want = [d["host"] + "/" + os.path.basename(d["directory"]), d["device"], d["model"]]
    assert f[:3] == want and d["verdict"] in f, (f, want, d["verdict"])
    assert str(d["rounds"]) in f and "%.3f" % d["write_p99_ms"] in f, (l, d)
    for r in d["reasons"]:
        assert r in l, (r, l)
h = open(os.path.join(fleet, "report.html")).read()
assert not re.search(r'<script|(src|href)="(https?:)?//', h, re.I)
side = h[h.index("<h3>Side by side</h3>"):]
pos = 0
for k, d in enumerate(drives, 1):
    where = d["host"] + "/" + os.path.basename(d["directory"])
    row = '<tr><td><a href="#drive-%d">%s</a></td><td>%s</td>' % (k, where, html.escape(d["device"]))
    i = side.find(row, pos)
    assert i >= 0, row
    pos = i
    assert side.find('<td class="%s">%s</td>' % (d["verdict"], d["verdict"]), i) > i, d["verdict"]
    sec = '<h2 id="drive-%d">%s: %s <b class="%s">%s</b></h2>' % (k, where, d["model"], d["verdict"], d["verdict"])
    assert sec in h, sec
    for r in d["reasons"]:
        assert html.escape(r, quote=True) in h, r
n = {v: sum(d["verdict"] == v for d in drives) for v in ("FAIL", "WARN", "PASS")}
for v, c in n.items():
    assert '<tr><td class="%s">%s</td><td class="n">%d</td></tr>' % (v, v, c) in h, (v, c)
print("table.txt and report.html: %d drives, %s" % (len(drives), n))
EOF
	pass "hddscope table and report over the fleet: every drive, its verdict, the worst first"
else
	[ ! -e "$T/fleet/table.txt" ] && [ ! -e "$T/fleet/report.html" ] || fail "table or report without the command"
	echo "note: this hddscope has no table/report; the playbook skipped them"
fi

# Again: each host's result directory holds a finished burn-in, which resumes
# to its end at once; the verdicts stay.
cp "$T/fleet/host-b/burnin.json" "$T/b1.json"
playbook
python3 - "$T/b1.json" "$T/fleet/host-b/burnin.json" <<'EOF' || fail "second run"
import json, sys
x, y = (json.load(open(p)) for p in sys.argv[1:])
assert [d["rounds"] for d in x["devices"]] == [d["rounds"] for d in y["devices"]]
assert [d["verdict"] for d in y["devices"]] == ["FAIL", "PASS"]
EOF
pass "run again: the finished burn-ins resume to their end, the verdicts stay"
