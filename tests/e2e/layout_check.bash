# Sourced by layout.sh and layout_disksim.sh (after common.bash): layout_check runs the layout
# probe on a simulated drive, fits it, and compares the figures with the model file's truth:
# bytes per track at the walk, surfaces and the number of zones exactly (every zone of these
# models is wider than the probe's spacing of 64 positions), head switch and one-cylinder seek
# (with write also the write seek's extra) within max(0.15 ms, 15%).
# layout_check MODEL NAME [write] [OPTS]: profile the layout (and a short response run for the
# revolution), fit, compare with the model file MODEL (a .drive file); OPTS go after the device
# spec (",host_us=10": a host path whose completions come late by 10 us on average).
layout_check() {
	local model=$1 name=$2 w=${3:-} o=${4:-} d=$T/$2 off cyl
	mkdir -p "$d"
	run 0 "$HDDSCOPE" response -q --points 40 --reps 10 -o "$d/response.tsv" "sim:$model$o"
	run 0 "$HDDSCOPE" layout -q ${w:+--write} -o "$d/layout.tsv" "sim:$model$o"
	[ "$(hdr "$d/layout.tsv" complete)" = yes ] || fail "$name: layout.tsv not complete"
	run 0 "$HDDSCOPE" fit --json "$d"
	cp "$T/out" "$d/fit.json"
	off=$(hdr "$d/layout.tsv" main_offset_bytes)
	cyl=$("$HDDSCOPE" sim locate "$model" "$off" | cut -f 3) || fail "$name: sim locate"
	python3 - "$model" "$d/fit.json" "$cyl" "$name" "$w" <<'PY' || fail "$name: figures against the model (above)"
import json, math, re, sys
model, fitf, cyl, name, w = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
kv, zones, seek, wseek = {}, [], {}, {}
for line in open(model):
    line = line.split('#')[0].strip()
    if '=' not in line:
        continue
    k, v = [x.strip() for x in line.split('=', 1)]
    if k == 'zone':
        zones.append([int(x) for x in v.split()])
    elif k == 'seek':
        d, ms = v.split(); seek[int(d)] = float(ms)
    elif k == 'write_seek':
        d, ms = v.split(); wseek[int(d)] = float(ms)
    else:
        kv[k] = v
def one_cyl(points):
    # the curve at one cylinder: a point there, else the line from (0, 0) to the first point
    if 1 in points:
        return points[1]
    d = min(points)
    return points[d] / d
if 'seek_first10' in kv:
    seek1 = float(kv['seek_first10'].split()[0])
elif 'seek_model' in kv:
    a, b = [float(x) for x in kv['seek_model'].split()[:2]]
    seek1 = a + b
else:
    seek1 = one_cyl(seek)
wseek1 = one_cyl(wseek) if wseek else seek1
settle = float(kv.get('write_settle_ms', '0'))
truth = {
    'track_bytes': next(z[2] for z in zones if z[0] <= cyl <= z[1]) * int(kv['sector_bytes']),
    'surfaces': int(kv['surfaces']),
    'zone_count': len(zones),
    'head_switch_ms': float(kv.get('head_switch_ms', '0')),
    'track_to_track_ms': seek1,
    'write_settle_ms': max(wseek1 + settle - seek1, 0),
}
f = json.load(open(fitf))
got = {
    'track_bytes': f['layout']['track_bytes'],
    'surfaces': f['surfaces']['value'],
    'zone_count': f['zone_count']['value'],
    'head_switch_ms': f['head_switch_ms']['value'],
    'track_to_track_ms': f['track_to_track_ms']['value'],
    'write_settle_ms': f['write_settle_ms']['value'],
}
bad = []
for k in ('track_bytes', 'surfaces', 'zone_count'):
    if got[k] != truth[k]:
        bad.append('%s %s, model %s' % (k, got[k], truth[k]))
for k in ('head_switch_ms', 'track_to_track_ms') + (('write_settle_ms',) if w else ()):
    g, t = got[k], truth[k]
    fig = f[k]
    if g is None or abs(g - t) > max(0.15, 0.15 * t):
        bad.append('%s %s, model %.4f' % (k, g, t))
    elif not (fig['low'] <= g <= fig['high']) or fig['low'] < 0 or not fig['method']:
        bad.append('%s: interval [%s, %s] or method %r' % (k, fig['low'], fig['high'], fig['method']))
print('%s: ' % name + ', '.join('%s %s (model %s)' % (k, got[k], round(truth[k], 4) if isinstance(truth[k], float) else truth[k]) for k in got))
if bad:
    print('%s: ' % name + '; '.join(bad), file=sys.stderr)
    sys.exit(1)
PY
}

