# hddscope table: the bench figures of N profiles as one table.  Three
# profiles (sim:atlas3 at two seeds, sim:st320420a with writes): every format
# gives, row by row, the identity and exactly the figures of each bench.tsv
# ("-" for what was not measured); refusals name their object.
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing (the suite checks tables with it)"

mkdir -p "$T/a" "$T/b" "$T/c"
run 0 "$HDDSCOPE" bench -q --seed 1 -o "$T/a/bench.tsv" "sim:atlas3,seed=1"
run 0 "$HDDSCOPE" bench -q --seed 2 -o "$T/b/bench.tsv" "sim:atlas3,seed=2"
run 0 "$HDDSCOPE" bench -q --seed 3 --write -o "$T/c/bench.tsv" "sim:st320420a,seed=3"
for f in text md csv; do
	run 0 "$HDDSCOPE" table --format "$f" "$T/a" "$T/b" "$T/c"
	cp "$T/out" "$T/table.$f"
done
python3 - "$T" <<'PY' || fail "table figures"
import csv, sys
t = sys.argv[1]
want = {}
for d in "abc":
    meta, rows = {}, {}
    for line in open("%s/%s/bench.tsv" % (t, d)):
        if line.startswith("# ") and ": " in line:
            k, v = line[2:].rstrip("\n").split(": ", 1)
            meta[k] = v
        elif not line.startswith("#"):
            f = line.rstrip("\n").split("\t")
            rows[f[0]] = f
    fig = lambda test, col: rows[test][col] if test in rows else "-"
    want[d] = ["%s/%s" % (t, d), meta["model"], meta["device"] + " (simulated)",
               fig("seq_read", 1), fig("seq_write", 1), fig("rand_read", 2), fig("rand_write", 2)]
assert want["c"][4] != "-" and want["c"][6] != "-" and want["a"][4] == "-", want
got = {}
got["csv"] = list(csv.reader(open(t + "/table.csv", newline="")))[1:]
md = [l for l in open(t + "/table.md")][2:]
got["md"] = [[c.strip() for c in l.strip().strip("|").split(" | ")] for l in md]
txt = open(t + "/table.text").read().splitlines()
assert txt[0].split()[:3] == ["profile", "device", "identity"], txt[0]
for fmt in ("csv", "md"):
    assert [r for r in got[fmt]] == [want[d] for d in "abc"], (fmt, got[fmt], want)
for d, l in zip("abc", txt[1:]):
    # Text columns are aligned: the model, the spec and every figure appear in order.
    pos = 0
    for cell in want[d]:
        i = l.find(cell, pos)
        assert i >= 0, (l, cell)
        pos = i + len(cell)
print("3 rows, each format the figures of bench.tsv: %s" % [want[d][3:] for d in "abc"])
PY
pass "table: text, md and csv give the figures of each bench.tsv"

run 1 "$HDDSCOPE" table
expect_err "no profile or burn-in directory given"
run 2 "$HDDSCOPE" table "$T/a" "$T/missing"
expect_err "stat $T/missing: No such file or directory"
mkdir "$T/empty"
run 2 "$HDDSCOPE" table "$T/empty"
expect_err "open $T/empty/bench.tsv: No such file or directory"
run 1 "$HDDSCOPE" table --format xml "$T/a"
pass "table refuses no directory, a missing one, one without bench.tsv, an unknown format"
