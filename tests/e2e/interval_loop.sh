# interval on a loop device: refused without --write; with it, the device's SHA-256 is
# unchanged; a mounted device is refused (O_EXCL) without a byte written.
. "$(dirname "$0")/common.bash"

loop_image $((64 << 20))

run 2 "$HDDSCOPE" interval --quiet -o "$T/n.tsv" "$dev"
expect_err "add --write"
[ ! -e "$T/n.tsv" ] || fail "refused run left a data file"

run 0 "$HDDSCOPE" interval --quiet --write --step 2 --reps 3 -o "$T/i.tsv" "$dev"
[ "$(hdr "$T/i.tsv" device_kind)" = "block device" ] || fail "device_kind"
[ "$(hdr "$T/i.tsv" samples)" = 33 ] || fail "samples"
awk -F'\t' '!/^#/ { if ($2 < $1) bad++ } END { exit bad > 0 }' "$T/i.tsv" || fail "a gap shorter than asked"
[ "$(sha256sum <"$dev")" = "$sum0" ] || fail "interval changed the loop device"
pass "interval on a loop device preserves every byte"

# A mounted file system (read-only mount, so that nothing else writes): O_EXCL fails,
# nothing is written, no data file is left.
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing (install e2fsprogs)"
mkfs.ext4 -q -F "$img" >/dev/null 2>&1 || fail "mkfs.ext4"
mkdir "$T/mnt"
mount -o ro "$dev" "$T/mnt" 2>"$T/err" || skip "cannot mount ext4 here: $(cat "$T/err")"
MOUNTS+=("$T/mnt")
sum1=$(sha256sum <"$dev")
run 2 "$HDDSCOPE" interval --quiet --write -o "$T/m.tsv" "$dev"
expect_err "^hddscope: $dev: device is busy \\(mounted or in use\\); refusing to write$"
[ ! -e "$T/m.tsv" ] || fail "refused run left a data file"
[ "$(sha256sum <"$dev")" = "$sum1" ] || fail "refused run changed the device"
pass "mounted device refused"
