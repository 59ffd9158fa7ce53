# Identity, SMART and cache state: info on a file, a loop device and a simulated
# drive (not-available reasons, exit 0), identity in every data file header,
# saved SMART data, and the write-cache setting restored on every way out,
# against a fake sysfs tree.
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing"

img=$T/disk.img
head -c $((64 << 20)) /dev/urandom >"$img"
blobs=${HDDSCOPE_SHARED:-$HDDSCOPE_SRC/../shared}/smart-blobs

check_header() { # FILE MODEL RPM WC
	for k in model serial firmware rpm_nominal write_cache read_lookahead smart_overall; do
		[ -n "$(hdr "$1" $k)" ] || fail "$1: header lacks $k"
	done
	[ "$(hdr "$1" model)" = "$2" ] || fail "$1: model '$(hdr "$1" model)', want '$2'"
	[ "$(hdr "$1" rpm_nominal)" = "$3" ] || fail "$1: rpm_nominal '$(hdr "$1" rpm_nominal)', want '$3'"
	[ "$(hdr "$1" write_cache)" = "$4" ] || fail "$1: write_cache '$(hdr "$1" write_cache)', want '$4'"
}

# A regular file: no SMART, and says why.
run 0 "$HDDSCOPE" info "$img"
grep -qx 'SMART: *not available (regular file)' "$T/out" || { cat "$T/out"; fail "file: SMART reason"; }
run 0 "$HDDSCOPE" info --json "$img"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d["smart"]; assert s["available"] is False and s["reason"]=="regular file", s; assert d["kind"]=="regular file"' "$T/out" || fail "file: info --json"
run 0 "$HDDSCOPE" seek -q --samples 20 -o "$T/f.tsv" "$img"
check_header "$T/f.tsv" unknown unknown unknown
[ "$(hdr "$T/f.tsv" smart)" = "not available (regular file)" ] || fail "file: smart header"
# No kernel queue of its own, no IDENTIFY: n/a, not invented values.
for k in scheduler nr_requests queue_depth zoned ata_zoned; do
	[ "$(hdr "$T/f.tsv" $k)" = n/a ] || fail "file: header $k '$(hdr "$T/f.tsv" $k)', want n/a"
done
run 0 "$HDDSCOPE" info "$img"
grep -qx 'zoned: *n/a' "$T/out" && grep -qx 'ATA zoned: *n/a' "$T/out" && grep -qx 'queue_depth: *n/a' "$T/out" ||
	{ cat "$T/out"; fail "file: info queue and zoned"; }
pass "regular file"

# A simulated drive: the model's identity, marked simulated.
run 0 "$HDDSCOPE" info sim:atlas3
grep -qx 'model: *QUANTUM_QM39100TD-SW' "$T/out" || fail "sim: model"
grep -qx 'nominal rpm: *7200' "$T/out" || fail "sim: rpm"
grep -qx 'write cache: *on' "$T/out" || fail "sim: write cache"
grep -qx 'SMART: *not available (simulated drive)' "$T/out" || fail "sim: SMART reason"
grep -q 'simulated drive (its identity is the model' "$T/out" || fail "sim: marked simulated"
run 0 "$HDDSCOPE" info sim:cheetah9lp --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); i=d["identity"]; assert i["simulated"] is True and i["rpm_nominal"]==10045, i' "$T/out" || fail "sim: json"
run 0 "$HDDSCOPE" seek -q --samples 20 -o "$T/s.tsv" sim:atlas3
check_header "$T/s.tsv" "QUANTUM_QM39100TD-SW" 7200 on
# A model is a conventional drive with no host queue: its IDENTIFY would report no zoning.
for k in scheduler nr_requests queue_depth zoned; do
	[ "$(hdr "$T/s.tsv" $k)" = n/a ] || fail "sim: header $k '$(hdr "$T/s.tsv" $k)', want n/a"
done
[ "$(hdr "$T/s.tsv" ata_zoned)" = "not reported" ] || fail "sim: header ata_zoned '$(hdr "$T/s.tsv" ata_zoned)'"
# The write cache switched for a run: the header records what was in effect.
run 0 "$HDDSCOPE" seek -q --samples 20 --write-cache off -o "$T/s0.tsv" sim:atlas3
check_header "$T/s0.tsv" "QUANTUM_QM39100TD-SW" 7200 off
run 0 "$HDDSCOPE" seek -q --samples 20 --write-cache on -o "$T/s1.tsv" sim:dtla307030
[ "$(hdr "$T/s1.tsv" write_cache)" = on ] || fail "sim: --write-cache on"
pass "simulated drive"

# A regular file has no write cache to set: refused before any I/O.
run 2 "$HDDSCOPE" seek -q --write-cache off -o "$T/x.tsv" "$img"
expect_err "a regular file has no write cache of its own"
[ ! -e "$T/x.tsv" ] || fail "refused run left a data file"
run 1 "$HDDSCOPE" seek -q --write-cache maybe "$img"
expect_err "--write-cache 'maybe': must be on, off or keep"
pass "write cache refusals"

# Saved SMART data of a real drive, on any target.
if [ -d "$blobs" ]; then
	b=$blobs/WDC_WD5000AAKS--00TMA0-12.01C01
	run 0 "$HDDSCOPE" info --smart --smart-blob "$b" "$img"
	grep -qx 'SMART: *BAD_SECTOR' "$T/out" || fail "blob: overall"
	grep -qx 'bad sectors: *592' "$T/out" || fail "blob: bad sectors"
	grep -qx 'model: *WDC WD5000AAKS-00TMA0' "$T/out" || fail "blob: model"
	grep -Eq '^  5 reallocated-sector-count +192 +192 +140 +prefail +good +63$' "$T/out" || fail "blob: attribute 5"
	run 0 "$HDDSCOPE" info --json --smart --smart-blob "$b" "$img"
	python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["smart"]; assert s["overall"]=="BAD_SECTOR" and s["bad_sectors"]==592 and s["power_on_hours"]==14992 and len(s["attributes"])==17, s' "$T/out" || fail "blob: json"
	run 0 "$HDDSCOPE" seek -q --samples 20 --smart-blob "$b" -o "$T/b.tsv" "$img"
	[ "$(hdr "$T/b.tsv" smart_overall)" = BAD_SECTOR ] || fail "blob: header"
	[ "$(hdr "$T/b.tsv" smart_bad_sectors)" = 592 ] || fail "blob: header bad sectors"
	# IDENTIFY word 69 of this drive is 0: it reports no zoned capabilities.
	[ "$(hdr "$T/b.tsv" ata_zoned)" = "not reported" ] || fail "blob: header ata_zoned '$(hdr "$T/b.tsv" ata_zoned)'"
	run 2 "$HDDSCOPE" info --smart-blob "$img" "$img"
	expect_err "^hddscope: $img: too large for saved SMART data"
	head -c 3000 "$img" >"$T/junk.blob"
	run 2 "$HDDSCOPE" info --smart-blob "$T/junk.blob" "$img"
	expect_err "^hddscope: $T/junk.blob: not SMART data saved by skdump --save"
	run 2 "$HDDSCOPE" seek -q --smart-blob /nonexistent/blob -o "$T/y.tsv" "$img"
	expect_err "open /nonexistent/blob: No such file or directory"
	[ ! -e "$T/y.tsv" ] || fail "refused run left a data file"
	pass "saved SMART data"
else
	echo "saved SMART data part skipped: no $blobs" >&2
fi

[ "$(id -u)" = 0 ] && command -v losetup >/dev/null || skip "loop device part needs root and losetup"
dev=$(losetup -f --show "$img" 2>/dev/null) || skip "losetup unusable"
LOOPS+=("$dev")
run 0 "$HDDSCOPE" info "$dev"
grep -q '^SMART: *not available (' "$T/out" || fail "loop: SMART reason"
grep -qx 'kind: *block device' "$T/out" || fail "loop: kind"
run 0 "$HDDSCOPE" seek -q --samples 20 -o "$T/l.tsv" "$dev"
check_header "$T/l.tsv" unknown unknown unknown
pass "loop device"

# A fake sysfs tree for the loop device, with a SCSI disk's cache_type.
majmin=$(printf '%d:%d' "0x$(stat -c %t "$dev")" "0x$(stat -c %T "$dev")")
sys=$T/sys
ct=$sys/dev/block/$majmin/device/scsi_disk/0:0:0:0/cache_type
mkdir -p "$(dirname "$ct")" "$sys/dev/block/$majmin/queue"
echo 1 >"$sys/dev/block/$majmin/queue/rotational"
echo "write back" >"$ct"
export HDDSCOPE_SYSFS=$sys

run 0 "$HDDSCOPE" info "$dev"
grep -qx 'cache_type: *write back' "$T/out" || fail "fake sysfs: cache_type"
grep -qx 'write cache: *on' "$T/out" || fail "fake sysfs: write cache from cache_type"
# What the kernel does not show is unknown, never none: no queue/zoned, no scheduler here.
grep -qx 'zoned: *unknown' "$T/out" || fail "fake sysfs: zoned without queue/zoned"
grep -qx 'scheduler: *unknown' "$T/out" || fail "fake sysfs: scheduler without queue/scheduler"
grep -qx 'ATA zoned: *unknown' "$T/out" || fail "fake sysfs: ATA zoned without IDENTIFY"
# A zoned disk whose host keeps one command at the drive: info and every header say so.
echo host-aware >"$sys/dev/block/$majmin/queue/zoned"
echo 1 >"$sys/dev/block/$majmin/device/queue_depth"
echo 2 >"$sys/dev/block/$majmin/queue/nr_requests"
run 0 "$HDDSCOPE" info "$dev"
grep -qx 'zoned: *host-aware' "$T/out" || fail "fake sysfs: zoned"
grep -qx 'queue_depth: *1' "$T/out" || fail "fake sysfs: queue_depth"
grep -qx 'nr_requests: *2' "$T/out" || fail "fake sysfs: nr_requests"
run 0 "$HDDSCOPE" info --json "$dev"
python3 -c 'import json,sys; q=json.load(open(sys.argv[1]))["queue"]; assert q["zoned"]=="host-aware" and q["queue_depth"]==1 and q["nr_requests"]==2 and q["scheduler"] is None and q["kernel_queue"] is True, q' "$T/out" || fail "fake sysfs: info --json queue"
run 0 "$HDDSCOPE" seek -q --samples 20 -o "$T/z.tsv" "$dev"
[ "$(hdr "$T/z.tsv" zoned)" = host-aware ] && [ "$(hdr "$T/z.tsv" queue_depth)" = 1 ] &&
	[ "$(hdr "$T/z.tsv" nr_requests)" = 2 ] && [ "$(hdr "$T/z.tsv" scheduler)" = unknown ] &&
	[ "$(hdr "$T/z.tsv" ata_zoned)" = unknown ] || fail "fake sysfs: queue and zoned header"
# bench's random writes on a zoned drive: the header says they may be a persistent cache's.
run 0 "$HDDSCOPE" bench -q --write --time 100ms --span 8m -o "$T/zb.tsv" "$dev"
hdr "$T/zb.tsv" rand_write_zoned | grep -q '^the drive is zoned (ATA unknown, queue/zoned host-aware): ' ||
	fail "fake sysfs: bench on a zoned drive: '$(hdr "$T/zb.tsv" rand_write_zoned)'"
rm "$sys/dev/block/$majmin/queue/zoned" "$sys/dev/block/$majmin/device/queue_depth" "$sys/dev/block/$majmin/queue/nr_requests"
pass "fake sysfs: queue and zoned facts"
# keep: nothing is written.
touch -d '2001-01-01' "$ct"
run 0 "$HDDSCOPE" seek -q --samples 20 -o "$T/k.tsv" "$dev"
[ "$(stat -c %Y "$ct")" = "$(date -d 2001-01-01 +%s)" ] || fail "keep wrote cache_type"
# Set for the run, restored at its end; the header records the setting in effect.
run 0 "$HDDSCOPE" seek -q --samples 50 --write-cache off -o "$T/o.tsv" "$dev"
[ "$(hdr "$T/o.tsv" write_cache)" = off ] || fail "header: write cache off"
[ "$(cat "$ct")" = "write back" ] || fail "not restored after a run: $(cat "$ct")"
pass "set for a run, restored"

# wait_for VALUE: until the run has set the cache.
wait_for() { for _ in $(seq 6000); do [ "$(cat "$ct")" = "$1" ] && return 0; sleep 0.05; done; fail "cache_type never became '$1'"; }

# Ctrl-C during the run.
"$HDDSCOPE" seek -q --samples 50000000 --write-cache off -o "$T/c.tsv" "$dev" 2>"$T/err" &
pid=$!
wait_for "write through"
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] || fail "Ctrl-C run exited $rc"
[ "$(cat "$ct")" = "write back" ] || fail "not restored after Ctrl-C: $(cat "$ct")"
pass "restored after Ctrl-C"

# I/O errors: the device shrinks to nothing under the run.
echo "write through" >"$ct"
"$HDDSCOPE" seek -q --samples 50000000 --write-cache on -o "$T/e.tsv" "$dev" 2>"$T/err" &
pid=$!
wait_for "write back"
truncate -s 0 "$img"
losetup -c "$dev"
wait $pid
rc=$?
[ "$rc" = 3 ] || { cat "$T/err" >&2; fail "failing run exited $rc, want 3"; }
[ "$(cat "$ct")" = "write through" ] || fail "not restored after I/O errors: $(cat "$ct")"
pass "restored after I/O errors"

# Where it cannot be set: stop before any I/O.
rm "$ct"
mkdir "$ct"
run 2 "$HDDSCOPE" seek -q --write-cache off -o "$T/n.tsv" "$dev"
expect_err "^hddscope: read $ct: Is a directory; nothing measured$"
[ ! -e "$T/n.tsv" ] || fail "refused run left a data file"
rmdir "$ct"
run 2 "$HDDSCOPE" seek -q --write-cache on -o "$T/n.tsv" "$dev"
expect_err "exposes no cache_type for this device"
pass "refused where it cannot be set"
