/*
 * The zone probe: sequential read throughput at evenly spread positions
 * over the whole device (as bonnie++'s zcav does).  Outer tracks hold more
 * sectors than inner ones, so the curve steps down zone by zone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/msg.h"
#include "hddscope/session.h"

struct zone_opts {
	struct hd_common c;
	uint64_t points, size, chunk;
};

static void zone_usage(FILE *f)
{
	fprintf(f,
"Usage: hddscope zone [OPTIONS] [DEVICE]\n"
"\n"
"Sequential read throughput against position: at --points positions spread\n"
"over the whole device, one chunk is read to position the head, then --size\n"
"bytes are read back to back in --chunk reads and timed.  Reads only.\n"
"\n"
"  --points N          positions (100)\n"
"  --size SIZE         bytes timed at each position, at least 8m (8m)\n"
"  --chunk SIZE        bytes per read (1m)\n"
"\n"
"Output: zone.tsv unless -o is given.  MB/s are 10^6 bytes per second.\n");
	hd_common_usage(f, 0);
}

enum { O_POINTS = HD_OPT_FIRST_PROBE, O_SIZE, O_CHUNK };

static int zone_opt(void *vo, int key, const char *arg)
{
	struct zone_opts *o = vo;

	switch (key) {
	case O_POINTS:
		return hd_opt_range("--points", arg, 2, 100000, &o->points);
	case O_SIZE:
		if (hd_opt_size("--size", arg, &o->size))
			return -1;
		if (o->size < (8u << 20)) {
			hd_err("--size %s: must be at least 8m, so that positioning does not dominate", arg);
			return -1;
		}
		return 0;
	case O_CHUNK:
		return hd_opt_block("--chunk", arg, &o->chunk);
	}
	return 0;
}

static int zone_parse(int argc, char **argv, struct zone_opts *o)
{
	static const struct option lo[] = {
		{ "points", required_argument, NULL, O_POINTS },
		{ "size", required_argument, NULL, O_SIZE },
		{ "chunk", required_argument, NULL, O_CHUNK },
		HD_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};

	memset(o, 0, sizeof(*o));
	hd_common_init(&o->c);
	o->points = 100;
	o->size = 8 << 20;
	o->chunk = 1 << 20;
	return hd_probe_parse(argc, argv, lo, &o->c, zone_usage, zone_opt, o);
}

int hd_cmd_zone(int argc, char **argv)
{
	struct zone_opts o;
	struct hd_session s;
	struct hd_dev *d;
	uint64_t i = 0, al, span, nchunks;
	void *buf = NULL;
	int rc, ex;

	rc = zone_parse(argc, argv, &o);
	if (rc)
		return rc > 0 ? HD_EXIT_OK : hd_usage_hint("zone");
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
