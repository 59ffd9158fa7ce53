# queue on a loop device: forked clients each open the block device again (O_DIRECT,
# read-only), every client runs, counts add up; the device is not changed.
. "$(dirname "$0")/common.bash"

loop_image $((128 << 20))

run 0 "$HDDSCOPE" queue --procs 1,2,4,8 --requests 500 -o "$T/q.tsv" "$dev"
cat "$T/err"
[ "$(hdr "$T/q.tsv" device_kind)" = "block device" ] || fail "device_kind"
[ "$(hdr "$T/q.tsv" direct_io)" = yes ] || fail "direct_io"
awk -F'\t' '!/^#/ { if ($2 != $1 * 500 || !($3 > 0)) bad++; n++ } END { exit bad > 0 || n != 4 }' "$T/q.tsv" ||
	fail "summary rows"
awk -F'\t' '!/^#/ { k = $1 SUBSEP $2; if (!(k in p)) { p[k] = $3; pids[$1]++ } if (p[k] != $3) bad++; cnt[k]++ }
	END { for (k in cnt) if (cnt[k] != 500) bad++; exit bad > 0 || pids[1] != 1 || pids[2] != 2 || pids[4] != 4 || pids[8] != 8 }' \
	"$T/q-requests.tsv" || fail "request rows"
[ "$(sha256sum <"$dev")" = "$sum0" ] || fail "queue changed the loop device"
pass "queue on a loop device"
