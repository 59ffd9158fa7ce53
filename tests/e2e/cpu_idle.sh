# The host is not the drive: while a probe times a block device or a file, it
# holds a PM QoS request of 0 us on /dev/cpu_dma_latency, so that no CPU halts
# and no wake-up is timed as the drive's; the header says so (cpu_idle), the
# request ends with the run, --allow-idle takes none (profile passes it on), and
# a simulated drive's header says n/a.
. "$(dirname "$0")/common.bash"

[ -c /dev/cpu_dma_latency ] || skip "no /dev/cpu_dma_latency"
loop_image $((128 << 20))
q0=$(qos_now)
[ "$q0" != 0 ] || skip "another process holds the CPUs out of idle already (PM QoS $q0 us)"

# During a seek probe (some 400 phase delays of up to 16.7 ms, each a wait in
# which a CPU would halt): the request is in force and no CPU halts.
"$HDDSCOPE" seek -q --samples 400 -o "$T/s.tsv" "$dev" 2>"$T/err" &
pid=$!
wait_io "$pid" 300
q1=$(qos_now)
have_cpuidle && h0=$(halts)
sleep 1
have_cpuidle && h1=$(halts)
kill -0 "$pid" 2>/dev/null || fail "the seek probe ended before the second was over"
wait "$pid" || fail "seek: $(cat "$T/err")"
[ "$q1" = 0 ] || fail "during the probe the PM QoS target was $q1 us, want 0"
[ "$(hdr "$T/s.tsv" cpu_idle)" = "polled (PM QoS 0 us on /dev/cpu_dma_latency)" ] ||
	fail "cpu_idle '$(hdr "$T/s.tsv" cpu_idle)'"
[ "$(qos_now)" = "$q0" ] || fail "after the probe the PM QoS target is $(qos_now) us, was $q0"
if have_cpuidle; then
	[ "$h1" = "$h0" ] || fail "during the probe the CPUs entered $((h1 - h0)) idle states that take time to leave"
	pass "seek on $dev: PM QoS 0 us while it ran ($q0 after), no CPU halted for a second ($h0 entries)"
else
	pass "seek on $dev: PM QoS 0 us while it ran ($q0 after)"
fi

# --allow-idle: no request; the CPUs halt as they would.
"$HDDSCOPE" seek -q --allow-idle --samples 400 -o "$T/a.tsv" "$dev" 2>"$T/err" &
pid=$!
wait_io "$pid" 300
q1=$(qos_now)
wait "$pid" || fail "seek --allow-idle: $(cat "$T/err")"
[ "$q1" = "$q0" ] || fail "--allow-idle: the PM QoS target was $q1 us during the probe"
[ "$(hdr "$T/a.tsv" cpu_idle)" = "allowed (--allow-idle)" ] || fail "--allow-idle: cpu_idle '$(hdr "$T/a.tsv" cpu_idle)'"
pass "seek --allow-idle: no request ($q1 us), cpu_idle allowed"

# A file target holds it too; profile passes --allow-idle to every probe.
run 0 "$HDDSCOPE" media -q -o "$T/m.tsv" "$img"
[ "$(hdr "$T/m.tsv" cpu_idle)" = "polled (PM QoS 0 us on /dev/cpu_dma_latency)" ] || fail "file: cpu_idle '$(hdr "$T/m.tsv" cpu_idle)'"
run 0 "$HDDSCOPE" profile -q --quick --no-charts --allow-idle -o "$T/p" "$dev"
n=0
for f in "$T"/p/*.tsv; do
	[ "$(hdr "$f" cpu_idle)" = "allowed (--allow-idle)" ] || fail "profile --allow-idle: $f: cpu_idle '$(hdr "$f" cpu_idle)'"
	n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "profile wrote $n data files"
pass "file target held; profile --allow-idle: cpu_idle allowed in its $n data files"

run 0 "$HDDSCOPE" seek -q --samples 50 -o "$T/sim.tsv" sim:atlas3
[ "$(hdr "$T/sim.tsv" cpu_idle)" = "n/a (a simulated drive's times are the model's)" ] || fail "sim: cpu_idle '$(hdr "$T/sim.tsv" cpu_idle)'"
pass "sim: cpu_idle n/a"
