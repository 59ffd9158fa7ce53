# hddscope report: one self-contained HTML page.  Two profiles of sim:atlas3
# (seeds 1 and 2): the page holds every chart as a PNG data: URI and refers to
# nothing outside itself, has no script, gives the bench figures of bench.tsv,
# the fit's rpm and the verdict 'hddscope verdict' gives, and the comparison;
# the profiles and the temporary directory are left as they were.  Headless
# Chromium renders it: a test-only copy with a script appended finds every
# image loaded (and a broken one, as a control, not loaded), and a screenshot
# of the page itself logs nothing to the console.  Refusals: no -o, a missing
# directory, a directory that is not a profile, an output that is a directory.
. "$(dirname "$0")/common.bash"
command -v gnuplot >/dev/null || skip "gnuplot not installed"
command -v python3 >/dev/null || fail "python3 missing (the suite checks JSON with it)"

for s in 1 2; do
	run 0 "$HDDSCOPE" profile -q --seed "$s" -o "$T/p$s" "sim:atlas3,seed=$s"
done
sums() { (cd "$T" && find p1 p2 -type f -exec sha256sum {} + | sort) ; }
sums >"$T/before"
mkdir "$T/tmp"
TMPDIR=$T/tmp run 0 "$HDDSCOPE" report "$T/p1" "$T/p2" -o "$T/r.html"
sums | cmp -s - "$T/before" || fail "report changed a profile directory"
[ -z "$(ls -A "$T/tmp")" ] || fail "report left $(ls "$T/tmp") in TMPDIR"
[ -z "$(ls "$T" | grep -v '^\(p1\|p2\|tmp\|before\|r.html\|out\|err\)$')" ] || fail "report wrote $(ls "$T")"

python3 - "$T" <<'PY' || fail "the page"
import json, re, sys
t = sys.argv[1]
h = open(t + "/r.html").read()
imgs = re.findall(r'<img [^>]*src="([^"]*)"', h)
assert len(imgs) >= 20, len(imgs)
assert all(s.startswith("data:image/png;base64,") and len(s) > 1000 for s in imgs), [s[:40] for s in imgs]
assert not re.search(r'<script|(src|href)="(https?:)?//|url\(', h, re.I), "refers outside or scripts"
for p in ("p1", "p2"):
    for line in open("%s/%s/bench.tsv" % (t, p)):
        if line.startswith("#"):
            continue
        f = line.split("\t")
        cell = '<td>%s</td><td class="n">%s</td><td class="n">%s</td>' % (f[0], f[1], f[2])
        assert cell in h, cell
    rpm = json.load(open("%s/%s/summary.json" % (t, p)))["fit"]["rpm"]
    assert '<td>rpm</td><td class="n">%.6g</td>' % rpm in h, rpm
assert 'id="compare"' in h and "==== " not in h and "hddscope compare" in h
print("%d images inlined" % len(imgs))
PY
for s in 1 2; do
	"$HDDSCOPE" verdict "$T/p$s" >/dev/null 2>&1
	case $? in 0) v=PASS ;; 4) v=WARN ;; 5) v=FAIL ;; 6) v="cannot judge" ;; *) fail "verdict p$s" ;; esac
	grep -c "under the default rules: <b class=\"[A-Z]*\">$v</b>\|<b class=\"CANNOT\">$v" "$T/r.html" | grep -qv '^0$' ||
		fail "the page does not give p$s's verdict $v"
done
pass "report: self-contained, the files' figures, nothing written but the page"

run 1 "$HDDSCOPE" report "$T/p1"
expect_err "no output file \(-o FILE\)"
run 2 "$HDDSCOPE" report "$T/p1" "$T/missing" -o "$T/x.html"
expect_err "stat $T/missing: No such file or directory"
mkdir "$T/empty"
run 2 "$HDDSCOPE" report "$T/empty" -o "$T/x.html"
expect_err "$T/empty"
run 2 "$HDDSCOPE" report "$T/p1" -o "$T/empty"
[ ! -e "$T/x.html" ] || fail "a refused report wrote $T/x.html"
pass "report refuses no -o, a missing directory, one that is not a profile, a directory as output"

. "$(dirname "$0")/chromium_check.bash"
chromium_check "$T/r.html" image/png "the report"
