# A synthetic workload as a DiskSim "validate" trace, one request a line:
#   R|W Miss LBA BLOCKS 0 NEXT_INTERARRIVAL_US
# (the service time column is left 0: the oracle fills it with DiskSim's).
#
#   awk -v kind=K -v n=N -v cap=BLOCKS [-v blocks=B] [-v gap_ms=G] [-v seed=S] -f gen.awk
#
# kind: randread, randwrite (aligned random requests of `blocks` over the whole
# of [0, cap)), seqread, seqwrite (back to back from a random start), mixed
# (2/3 reads of 4-64 KiB, writes of 4-32 KiB, half of the requests continuing
# the previous one, gaps of 0-4.9 ms; DiskSim 4.0 asserts on many writes
# larger than its Atlas III's 32 KiB write segment).  gap_ms is the idle time after every request but the mixed ones.
# The random numbers come from a Lehmer generator (MINSTD) in exact integer
# arithmetic, not from the awk's rand(), so that mawk, gawk and busybox awk
# write the same trace for the same seed.
function u() {
	x = (x * 48271) % 2147483647
	return x / 2147483647
}
function emit(op, lba, b, gap_us) {
	printf "%s Miss %.0f %d 0 %.0f\n", op, lba, b, gap_us
}
BEGIN {
	if (blocks == "") blocks = 8
	if (gap_ms == "") gap_ms = 0
	if (seed == "") seed = 1
	blocks += 0; n += 0; cap += 0; gap_us = gap_ms * 1000
	if (n < 1 || cap < 128 || blocks < 1 || blocks * n > cap && kind ~ /^seq/) {
		print "gen.awk: bad arguments (kind " kind ", n " n ", cap " cap ", blocks " blocks ")" > "/dev/stderr"
		exit 2
	}
	x = seed % 2147483646 + 1
	for (i = 0; i < 10; i++) u()
	if (kind == "randread" || kind == "randwrite") {
		op = kind == "randread" ? "R" : "W"
		slots = int(cap / blocks)
		for (i = 0; i < n; i++)
			emit(op, int(u() * slots) * blocks, blocks, gap_us)
	} else if (kind == "seqread" || kind == "seqwrite") {
		op = kind == "seqread" ? "R" : "W"
		lba = int(u() * int((cap - n * blocks) / blocks)) * blocks
		for (i = 0; i < n; i++)
			emit(op, lba + i * blocks, blocks, gap_us)
	} else if (kind == "mixed") {
		next_lba = 0
		for (i = 0; i < n; i++) {
			op = u() < 2 / 3 ? "R" : "W"
			b = 8 * (1 + int(u() * (op == "R" ? 16 : 8)))
			if (u() < 0.5 && next_lba + b <= cap)
				lba = next_lba
			else
				lba = int(u() * int(cap / 8 - 16)) * 8
			next_lba = lba + b
			emit(op, lba, b, int(u() * 50) * 100)
		}
	} else {
		print "gen.awk: unknown kind '" kind "'" > "/dev/stderr"
		exit 2
	}
}
