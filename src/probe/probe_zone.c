/*
 * The zone probe: sequential read throughput at evenly spread positions
 * over the whole device (as bonnie++'s zcav does).  Outer tracks hold more
 * sectors than inner ones, so the curve steps down zone by zone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/msg.h"
#include "hddscope/probes.h"
#include "hddscope/session.h"

#define O(member) offsetof(struct hd_zone_opts, member)

static const struct hd_option zone_options[] = {
	{ .name = "points", .kind = HD_OPT_COUNT, .arg = "N", .off = O(points), .def = "100", .lo = 2, .hi = 100000,
	  .help = "positions" },
	{ .name = "size", .kind = HD_OPT_SIZE, .arg = "SIZE", .off = O(size), .def = "8m", .lo = 8u << 20,
	  .must = "at least 8m, so that positioning does not dominate",
	  .help = "bytes timed at each position, at least 8m" },
	HD_BLOCK_OPTION("chunk", struct hd_zone_opts, chunk, "1m", "bytes per read"),
	{ .kind = HD_OPT_END },
};

static const struct hd_cmdspec zone_spec = {
	HD_PROBE_SPEC("zone", "[OPTIONS] [DEVICE]"),
	.intro = "Sequential read throughput against position: at --points positions spread\n"
		 "over the whole device, one chunk is read to position the head, then --size\n"
		 "bytes are read back to back in --chunk reads and timed.  Reads only.\n"
		 "\n",
	.opts = zone_options,
	.outro = "\n"
		 "Output: zone.tsv unless -o is given.  MB/s are 10^6 bytes per second.\n",
};

static int zone_run(void *vo)
{
	struct hd_zone_opts o = *(const struct hd_zone_opts *)vo;
	struct hd_session s;
	struct hd_dev *d;
	uint64_t i = 0, al, span, nchunks;
	void *buf = NULL;
	int rc, ex;

	ex = hd_session_begin(&s, "zone", &o.c, 0, "zone.tsv");
	if (ex)
		return ex;
	d = s.dev;
	al = d->io_align;
	if (o.chunk % al || o.size % o.chunk) {
		hd_err("--chunk %llu: must be a multiple of the %u-byte access unit of %s and divide --size %llu",
		       (unsigned long long)o.chunk, (unsigned)al, d->path, (unsigned long long)o.size);
		hd_session_abort(&s);
		return HD_EXIT_USAGE;
	}
	if (d->size < o.size + o.chunk) {
		hd_err("%s: device too small (%llu bytes) for --size %llu", d->path, (unsigned long long)d->size,
		       (unsigned long long)o.size);
		hd_session_abort(&s);
		return HD_EXIT_SETUP;
	}
	buf = hd_buf_alloc(d, o.chunk);
	if (!buf) {
		hd_err("%s: out of memory", d->path);
		hd_session_abort(&s);
		return HD_EXIT_SETUP;
	}
	span = d->size - o.size - o.chunk;
	nchunks = o.size / o.chunk;
	hd_dfw_meta(s.w, "params", "points=%llu size=%llu chunk=%llu", (unsigned long long)o.points,
		    (unsigned long long)o.size, (unsigned long long)o.chunk);
	hd_dfw_meta(s.w, "mb", "10^6 bytes");
	hd_dfw_meta(s.w, "phase", "none: sequential reads, timed as a transfer rate");
	s.run.unit = "points";
	s.run.total = o.points;

	for (i = 0; i < o.points && !hd_session_stop(&s); i++) {
		/* Evenly spread, first at the start and last at the end of the device. */
		uint64_t off = (uint64_t)((__extension__ (unsigned __int128)span * i) / (o.points - 1)) / al * al;
		int64_t t0, t1, lat = 0;
		enum hd_class cls;
		uint64_t k, at = off;

		/* The first chunk only moves the head there; the timed ones follow it. */
		rc = hd_dev_io(d, HD_OP_READ, buf, o.chunk, at);
		at += o.chunk;
		t0 = hd_dev_now(d);
		for (k = 0; rc == 0 && k < nchunks && !hd_interrupted; k++, at += o.chunk)
			rc = hd_dev_io(d, HD_OP_READ, buf, o.chunk, at);
		t1 = hd_dev_now(d);
		if (hd_interrupted && k < nchunks)
			break;
		lat = t1 - t0;
		hd_session_sample(&s, rc, HD_OP_READ, rc ? at - o.chunk : off, lat, &cls);
		if (rc == 0)
			fprintf(s.rows, "%" PRIu64 "\t%.3f\n", off, (double)o.size / 1e6 / ((double)lat / 1e9));
		hd_run_progress(&s.run, i + 1, o.points);
	}
	ex = hd_session_end(&s, "offset_bytes mb_s", i == o.points);
	hd_buf_free(buf, o.chunk);
	return ex;
}

const struct hd_probe hd_probe_zone = { "zone", &zone_spec, sizeof(struct hd_zone_opts), zone_run };

int hd_cmd_zone(int argc, char **argv)
{
	return hd_probe_main(&hd_probe_zone, argc, argv);
}
