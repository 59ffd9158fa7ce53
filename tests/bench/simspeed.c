/*
 * bench_simspeed: how fast the simulated drive runs, for tests/bench/run.
 *
 *   bench_simspeed [PRESET [READS [SPAN]]]     (atlas3, 2000000, whole drive)
 *
 * Issues READS 4 KiB reads at uniformly random aligned offsets within the
 * first SPAN bytes through hd_dev_timed(), the call every probe makes, and
 * prints one line: "reads cpu_s reads_per_cpu_s simulated_s".  CPU time is
 * the process's own (CLOCK_PROCESS_CPUTIME_ID) over the loop alone, so
 * opening the model does not count; a checksum of the latencies is printed
 * too, so that the compiler cannot drop the loop.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hddscope/dev.h"
#include "hddscope/util.h"

#define BLOCK 4096

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	char spec[160];
	char err[512];
	struct hd_dev *d;
	struct hd_rng rng;
	uint64_t reads = 2000000, span = 0, units, sum = 0, fails = 0;
	double c0, c1;
	int64_t t0, lat;
	void *buf;
	int rc;

	snprintf(spec, sizeof(spec), "sim:%s", argc > 1 ? argv[1] : "atlas3");
	if ((argc > 2 && hd_parse_u64(argv[2], &reads)) || (argc > 3 && hd_parse_size(argv[3], &span)) ||
	    reads == 0 || argc > 4) {
		fprintf(stderr, "usage: bench_simspeed [PRESET [READS [SPAN]]]\n");
		return 1;
	}
	rc = hd_dev_open(&d, spec, 0, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "bench_simspeed: %s\n", err);
		return 2;
	}
	if (span == 0 || span > d->size)
		span = d->size;
	units = span / BLOCK;
	buf = hd_buf_alloc(d, BLOCK);
	if (!buf || units == 0) {
		fprintf(stderr, "bench_simspeed: %s: no buffer or span too small\n", spec);
		return 2;
	}
	hd_rng_seed(&rng, 1);
	t0 = hd_dev_now(d);
	c0 = cpu_s();
	for (uint64_t i = 0; i < reads; i++) {
		if (hd_dev_timed(d, HD_OP_READ, buf, BLOCK, hd_rng_below(&rng, units) * BLOCK, &lat))
			fails++;
		sum += (uint64_t)lat;
	}
	c1 = cpu_s();
	printf("%" PRIu64 " %.6f %.0f %.3f\n", reads, c1 - c0, (double)reads / (c1 - c0),
	       (double)(hd_dev_now(d) - t0) / 1e9);
	fprintf(stderr, "bench_simspeed: %s: %" PRIu64 " failed, latency checksum %" PRIu64 "\n", spec, fails, sum);
	hd_buf_free(buf, BLOCK);
	hd_dev_close(d);
	return fails ? 3 : 0;
}
