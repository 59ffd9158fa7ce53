# The host is not the drive: while a probe times a block device or a file, it
# holds a PM QoS request of 0 us on /dev/cpu_dma_latency, so that no CPU halts
# and no wake-up is timed as the drive's, and where the kernel has no cpuidle
# driver to read that request it spins an idle-priority thread on each CPU
# instead; the header says so (cpu_idle), the hold ends with the run,
# --allow-idle takes none (profile passes it on), and a simulated drive's
# header says n/a.
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
nspin=$(all_spinners)
i0=$(idle_ticks)
sleep 1
i1=$(idle_ticks)
have_cpuidle && h1=$(halts)
kill -0 "$pid" 2>/dev/null || fail "the seek probe ended before the second was over"
wait "$pid" || fail "seek: $(cat "$T/err")"
[ "$q1" = 0 ] || fail "during the probe the PM QoS target was $q1 us, want 0"
is_held_note "$(hdr "$T/s.tsv" cpu_idle)" ||
	fail "cpu_idle '$(hdr "$T/s.tsv" cpu_idle)'"
# Other tests' probes may hold a request of their own now and then: the
# target comes back once they end.
for _ in $(seq 200); do [ "$(qos_now)" = "$q0" ] && break; sleep 0.1; done
[ "$(qos_now)" = "$q0" ] || fail "after the probe the PM QoS target is $(qos_now) us, was $q0"
if have_cpuidle; then
	[ "$h1" = "$h0" ] || fail "during the probe the CPUs entered $((h1 - h0)) idle states that take time to leave"
	pass "seek on $dev: PM QoS 0 us while it ran ($q0 after), no CPU halted for a second ($h0 entries)"
elif [ "$(idle_driver)" = none ]; then
	# No driver reads the request: a thread at SCHED_IDLE spins on each CPU
	# (the probe's, or those of another hddscope process running beside the
	# test: one set a machine), so that no CPU is idle (a second holds 100
	# ticks a CPU, and halting CPUs idle some 190 of 200 during this probe;
	# the threads start before the probe times anything; where other tests
	# keep the machine busy they nap, 5 ms at a time).
	[ "$nspin" -ge "$(nproc)" ] || fail "during the probe $nspin hddscope threads ran at SCHED_IDLE for $(nproc) CPUs"
	[ $((i1 - i0)) -le 40 ] || fail "during the probe the CPUs were idle for $((i1 - i0)) ticks in a second"
	pass "seek on $dev: PM QoS 0 us while it ran ($q0 after); no cpuidle driver, so $nspin idle-priority threads spun: $((i1 - i0)) idle ticks in a second"
	# A busy machine: the CPUs do not halt, and the spinners nap rather than
	# take their group's share of a CPU from another's work.
	background "$HDDSCOPE" seek -q --samples 1000 -o "$T/b.tsv" "$dev" 2>"$T/err"
	pb=$pid
	wait_io "$pb" 300
	s0=$(spin_ticks)
	sleep 1
	s1=$(spin_ticks)
	timeout 3 sh -c 'while :; do :; done' &
	timeout 3 sh -c 'while :; do :; done' &
	sleep 1
	s2=$(spin_ticks)
	sleep 1
	s3=$(spin_ticks)
	wait %2 %3 2>/dev/null
	kill -0 "$pb" 2>/dev/null || fail "the seek probe ended before the busy loops did"
	kill -KILL "$pb"
	wait "$pb" 2>/dev/null
	[ $((s3 - s2)) -le 20 ] || fail "beside two busy loops the spinners took $((s3 - s2)) ticks of a second (quiet: $((s1 - s0)))"
	pass "spinners: $((s1 - s0)) ticks of a second before, $((s3 - s2)) beside two busy loops"
else
	pass "seek on $dev: PM QoS 0 us while it ran ($q0 after)"
fi

# One set of spinners a machine: a second probe started while the first
# spins leaves the CPUs to it, and spins in its place once the first ends
# (here killed: the kernel lets its name go).
if [ "$(idle_driver)" = none ]; then
	background "$HDDSCOPE" seek -q --samples 4000 -o "$T/h1.tsv" "$dev" 2>"$T/err1"
	p1=$pid
	wait_io "$p1" 300
	background "$HDDSCOPE" seek -q --samples 1000 -o "$T/h2.tsv" "$img" 2>"$T/err2"
	p2=$pid
	wait_io "$p2" 300
	n1=$(spinners "$p1") n2=$(spinners "$p2")
	{ [ "$n1" = "$(nproc)" ] && [ "$n2" = 0 ]; } ||
		fail "two probes: the first ran $n1 threads at SCHED_IDLE, the second $n2, for $(nproc) CPUs"
	kill -KILL "$p1"
	wait "$p1" 2>/dev/null
	for _ in $(seq 100); do [ "$(spinners "$p2")" = "$(nproc)" ] && break; sleep 0.05; done
	kill -0 "$p2" 2>/dev/null || fail "the second probe ended before the first was killed: $(cat "$T/err2")"
	[ "$(spinners "$p2")" = "$(nproc)" ] ||
		fail "the first probe killed, the second runs $(spinners "$p2") threads at SCHED_IDLE for $(nproc) CPUs"
	wait "$p2" || fail "the second probe: $(cat "$T/err2")"
	[ "$(hdr "$T/h2.tsv" cpu_idle)" = "$(held_note | tail -n 1)" ] || fail "the second probe's cpu_idle '$(hdr "$T/h2.tsv" cpu_idle)'"
	pass "two probes: the second left the CPUs to the first's $n1 spinners and took them over within 5 s of its end"

	# The holder never accepts: every probe that waited on it stays in its listen queue (64),
	# ended or not.  With a blocking connect the 65th probe's watcher waited for the holder's
	# end, and the probe with it at its own end (a layout on a file hung past ctest's 600 s
	# beside a kept emulator).  Eighty short probes beside a holder each end.
	background "$HDDSCOPE" seek -q --samples 100000 -o "$T/hold.tsv" "$dev" 2>"$T/errh"
	ph=$pid
	wait_io "$ph" 300
	for i in $(seq 80); do
		timeout 60 "$HDDSCOPE" seek -q --samples 5 -o "$T/q.tsv" "$img" 2>"$T/errq" ||
			fail "probe $i of 80 beside a holder: exit $? $(cat "$T/errq")"
	done
	kill -KILL "$ph"
	wait "$ph" 2>/dev/null
	pass "eighty probes beside a holder that never accepts: each ended"
fi

# --allow-idle: no request; the CPUs halt as they would.
"$HDDSCOPE" seek -q --allow-idle --samples 400 -o "$T/a.tsv" "$dev" 2>"$T/err" &
pid=$!
wait_io "$pid" 300
held=$(ls -l "/proc/$pid/fd" 2>/dev/null | grep -c cpu_dma_latency)
nspin=$(spinners "$pid")
wait "$pid" || fail "seek --allow-idle: $(cat "$T/err")"
[ "$held" = 0 ] || fail "--allow-idle: the probe held /dev/cpu_dma_latency open"
[ "$nspin" = 0 ] || fail "--allow-idle: $nspin threads ran at SCHED_IDLE during the probe"
[ "$(hdr "$T/a.tsv" cpu_idle)" = "allowed (--allow-idle)" ] || fail "--allow-idle: cpu_idle '$(hdr "$T/a.tsv" cpu_idle)'"
pass "seek --allow-idle: no request (/dev/cpu_dma_latency not open), no spinner, cpu_idle allowed"

# A file target holds it too; profile passes --allow-idle to every probe.
run 0 "$HDDSCOPE" media -q -o "$T/m.tsv" "$img"
is_held_note "$(hdr "$T/m.tsv" cpu_idle)" || fail "file: cpu_idle '$(hdr "$T/m.tsv" cpu_idle)'"
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
