# seek on a loop device: the same checks as on a file, data-preserving writes,
# and refusals (mounted ext4, read-only device) that change not a byte.
. "$(dirname "$0")/common.bash"

loop_image $((256 << 20))

run 0 "$HDDSCOPE" info "$dev"
grep -q 'kind: *block device' "$T/out" || fail "info kind"
grep -q "size: *$((256 << 20)) bytes" "$T/out" || fail "info size"
run 0 "$HDDSCOPE" info --json "$dev"
grep -q "\"size_bytes\": $((256 << 20))" "$T/out" || fail "info --json size"
grep -q '"kind": "block device"' "$T/out" || fail "info --json kind"
pass "info on a loop device"

run 0 "$HDDSCOPE" seek --quiet --samples 500 -o "$T/r.tsv" "$dev"
check_seek "$T/r.tsv" 500 4096
[ "$(hdr "$T/r.tsv" device_kind)" = "block device" ] || fail "device_kind"
pass "read seek on a loop device"

run 0 "$HDDSCOPE" seek --quiet --samples 300 --block 512 --min 512 --range 1m -o "$T/s.tsv" "$dev"
check_seek "$T/s.tsv" 300 512
pass "sector-sized accesses"

run 0 "$HDDSCOPE" seek --quiet --op write --write --samples 400 -o "$T/w.tsv" "$dev"
check_seek "$T/w.tsv" 400 4096
[ "$(sha256sum <"$dev")" = "$sum0" ] || fail "write seek changed the loop device"
pass "write seek preserves every byte"

# A read-only loop device cannot be written, and says so before any I/O.
attach_loop rodev "$img" -r || fail "losetup -r: $(cat "$T/err")"
run 2 "$HDDSCOPE" seek --quiet --op write --write -o "$T/ro.tsv" "$rodev"
expect_err "^hddscope: $rodev: read-only device; refusing to write$"
[ ! -e "$T/ro.tsv" ] || fail "refused run left a data file"
losetup -d "$rodev"
pass "read-only device refused"

# A mounted ext4 file system: O_EXCL fails, nothing is written.
command -v mkfs.ext4 >/dev/null || fail "mkfs.ext4 missing (install e2fsprogs)"
fs=$T/fs.img
head -c $((64 << 20)) /dev/zero >"$fs"
mkfs.ext4 -q -F "$fs" || fail "mkfs.ext4"
attach_loop fsdev "$fs" || fail "losetup fs: $(cat "$T/err")"
mkdir "$T/mnt"
mount -o ro "$fsdev" "$T/mnt" 2>"$T/err" || skip "cannot mount ext4 here: $(cat "$T/err")"
MOUNTS+=("$T/mnt")
fsum=$(sha256sum <"$fsdev")
run 2 "$HDDSCOPE" seek --quiet --op write --write -o "$T/m.tsv" "$fsdev"
expect_err "^hddscope: $fsdev: device is busy \(mounted or in use\); refusing to write$"
[ ! -e "$T/m.tsv" ] || fail "refused run left a data file"
[ "$(sha256sum <"$fsdev")" = "$fsum" ] || fail "refused run changed the device"
# Reading a mounted device is allowed.
run 0 "$HDDSCOPE" seek --quiet --samples 50 -o "$T/mr.tsv" "$fsdev"
umount "$T/mnt" && MOUNTS=()
mount "$fsdev" "$T/mnt" || fail "mount rw"
MOUNTS+=("$T/mnt")
run 2 "$HDDSCOPE" seek --quiet --op write --write -o "$T/m.tsv" "$fsdev"
expect_err "device is busy"
pass "mounted device refused for writing"
