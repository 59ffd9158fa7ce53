# hddscope report over burn-ins: two result directories (two "hosts" of
# simulated drives: a steady one and one whose sectors go bad after an hour;
# a steady one and one whose write retries grow), two hours on the virtual
# clock.  The page counts the verdicts of burnin.json, lists the FAIL drives
# with every FAIL reason of device.json, gives each drive's figures side by
# side as 'hddscope table' gives them, and for each drive its SMART before and
# after and a row per round with the figures of device.json; it is
# self-contained (images as data: URIs, no script, nothing outside), and
# nothing but the page is written.  Headless Chromium renders it with every
# image loaded (a broken one, as a control, is seen) and nothing on the
# console.  Refusals: profiles mixed with burn-ins, a directory as the output,
# a result directory whose device.json is gone.
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing (the suite checks pages with it)"

"$HDDSCOPE" sim show atlas3 | grep -v '^write_cache' >"$T/steady.drive" || fail "sim show"
printf 'write_cache = on\nwrite_cache_kb = 32\nsmart = on\n' >>"$T/steady.drive"
{ cat "$T/steady.drive"; echo "write_retry_growth_per_hour = 0.01"; } >"$T/retry.drive"
{ cat "$T/steady.drive"; printf 'bad_sectors_after_hours = 1\nbad_sectors_count = 8\n'; } >"$T/bad.drive"
run 5 "$HDDSCOPE" burnin --write --hours 2 --every 30m -o "$T/host-a" "sim:$T/steady.drive" "sim:$T/bad.drive"
run 5 "$HDDSCOPE" burnin --write --hours 2 --every 30m -o "$T/host-b" "sim:$T/retry.drive" "sim:$T/steady.drive"
sums() { (cd "$T" && find host-a host-b -type f -exec sha256sum {} + | sort); }
sums >"$T/before"
mkdir "$T/tmp"
TMPDIR=$T/tmp run 0 "$HDDSCOPE" report "$T/host-a" "$T/host-b/01-retry.drive" "$T/host-b/02-steady.drive" -o "$T/r.html"
sums | cmp -s - "$T/before" || fail "report changed a result directory"
[ -z "$(ls -A "$T/tmp")" ] || fail "report left $(ls "$T/tmp") in TMPDIR"
[ -z "$(ls "$T" | grep -v '^\(host-a\|host-b\|tmp\|before\|r.html\|out\|err\|.*\.drive\)$')" ] || fail "report wrote $(ls "$T")"
run 0 "$HDDSCOPE" table --format csv "$T/host-a" "$T/host-b/01-retry.drive" "$T/host-b/02-steady.drive"
cp "$T/out" "$T/table.csv"

python3 - "$T" <<'PY' || fail "the page"
import csv, html, json, re, sys
t = sys.argv[1]
h = open(t + "/r.html").read()
assert not re.search(r'<script|(src|href)="(https?:)?//|url\(', h, re.I), "refers outside or scripts"
imgs = re.findall(r'<img [^>]*src="([^"]*)"', h)
assert len(imgs) == 8 and all(s.startswith("data:image/svg+xml;base64,") for s in imgs), [s[:40] for s in imgs]
dirs = ["host-a/01-steady.drive", "host-a/02-bad.drive", "host-b/01-retry.drive", "host-b/02-steady.drive"]
docs = {d: json.load(open("%s/%s/device.json" % (t, d))) for d in dirs}
assert [docs[d]["verdict"] for d in dirs] == ["PASS", "FAIL", "FAIL", "PASS"], [docs[d]["verdict"] for d in dirs]
for v, c in (("FAIL", 2), ("WARN", 0), ("PASS", 2)):
    assert '<tr><td class="%s">%s</td><td class="n">%d</td></tr>' % (v, v, c) in h, v
# By host: each result directory's drives and verdicts.
for host in ("host-a", "host-b"):
    assert ('<tr><td>%s</td><td class="n">2</td><td class="n">1</td><td class="n">0</td><td class="n">1</td>'
            '<td class="n">0</td></tr>' % host) in h, host
# The worst first: the two FAIL drives, in the operands' order, then the PASS ones.
order = ["host-a/02-bad.drive", "host-b/01-retry.drive", "host-a/01-steady.drive", "host-b/02-steady.drive"]
worst = h[h.index("<h3>The worst drives</h3>"):h.index("<h3>Side by side</h3>")]
assert re.findall(r'<a href="#drive-\d">([^<]*)</a>', worst) == order[:2], worst
for d in order[:2]:
    for r in docs[d]["reasons"]:
        if r["level"] == "FAIL":
            assert html.escape(r["text"], quote=True) in worst, r["text"]
# Side by side: the cells of 'hddscope table' (the reasons aside), row by row.
rows = list(csv.reader(open(t + "/table.csv", newline="")))[1:]
side = h[h.index("<h3>Side by side</h3>"):h.index('<h2 id="drive-1">')]
trs = re.findall(r"<tr><td><a[^>]*>([^<]*)</a></td>(.*?)</tr>", side)
assert [x[0] for x in trs] == order == [r[0] for r in rows], (trs, rows)
for (w, rest), r in zip(trs, rows):
    cells = [html.unescape(c) for c in re.findall(r"<td[^>]*>([^<]*)</td>", rest)]
    assert cells == r[1:-1], (cells, r)
# Each drive: its SMART before and after, and every round's figures of device.json.
for k, d in enumerate(order, 1):
    x = docs[d]
    sec = h[h.index('<h2 id="drive-%d">' % k):]
    sec = sec[:sec.index('<h2 id="drive-%d">' % (k + 1))] if k < 4 else sec
    assert sec.startswith('<h2 id="drive-%d">%s: %s <b class="%s">%s</b>' % (k, d, x["identity"]["model"],
                          x["verdict"], x["verdict"])), sec[:200]
    b, a = x["smart_before"]["reallocated_sectors"], x["smart_after"]["reallocated_sectors"]
    ch = "+%d" % (a - b) if a > b else "%d" % (a - b)
    assert '<tr><th>reallocated_sectors</th><td class="n">%d</td><td class="n">%d</td><td class="n">%s</td></tr>' \
        % (b, a, ch) in sec, (d, b, a)
    for q in x["rounds"]:
        row = ('<tr><td class="n">%d</td><td class="n">%.2f</td><td class="n">%.2f</td><td>yes</td>'
               '<td class="n">%d</td><td class="n">%d</td><td class="n">%.3f</td><td class="n">%.3f-%.3f</td>'
               '<td class="n">%.3f</td><td class="n">%.3f</td>') % (
            q["round"], q["start_s"] / 3600, q["end_s"] / 3600, q["writes"], q["slow_writes"],
            100 * q["slow_write_rate"], 100 * q["slow_write_rate_lo"], 100 * q["slow_write_rate_hi"],
            q["write_p50_ms"], q["write_p99_ms"])
        assert row in sec, (d, row)
print("%d images; verdicts, reasons, side-by-side cells and %d rounds as device.json holds them"
      % (len(imgs), sum(len(x["rounds"]) for x in docs.values())))
PY
pass "report of burn-ins: the fleet first, the worst drives' evidence, each drive's rounds, self-contained"

run 0 "$HDDSCOPE" report --no-charts "$T/host-a" -o "$T/nc.html"
[ "$(grep -c '<img ' "$T/nc.html")" = 0 ] && grep -q '<h2 id="drive-2">' "$T/nc.html" || fail "--no-charts"
rm "$T/nc.html"
pass "report --no-charts: the figures without the charts"

mkdir -p "$T/p"
run 0 "$HDDSCOPE" bench -q --seed 1 -o "$T/p/bench.tsv" "sim:atlas3"
run 1 "$HDDSCOPE" report "$T/host-a" "$T/p" -o "$T/x.html"
expect_err "report: $T/host-a is a burn-in result and $T/p a profile: give profiles or burn-in results, not both"
[ ! -e "$T/x.html" ] || fail "a refused report wrote $T/x.html"
run 2 "$HDDSCOPE" report "$T/host-a" -o "$T/tmp"
expect_err "$T/tmp: "
[ -d "$T/tmp" ] && [ -z "$(ls -A "$T/tmp")" ] || fail "a refused report touched the directory $T/tmp"
cp -r "$T/host-a" "$T/host-c"
rm "$T/host-c/02-bad.drive/device.json"
run 2 "$HDDSCOPE" report "$T/host-c" -o "$T/x.html"
expect_err "open $T/host-c/02-bad.drive/device.json: No such file or directory"
[ ! -e "$T/x.html" ] || fail "a refused report wrote $T/x.html"
pass "report refuses profiles mixed with burn-ins, a directory as output, a device gone, writing nothing"

. "$(dirname "$0")/chromium_check.bash"
chromium_check "$T/r.html" image/svg+xml "the burn-in report"
