/*
 * The seek probe: position the head with a media read at a jittered
 * reference R, wait a random fraction of a revolution (the phase delay,
 * session.c), then time one access at R + d for a signed distance d.
 * Latency against d is the drive's seek curve with rotation on top.
 * Writes are data-preserving: each target's bytes are read (untimed) just
 * before and written back unchanged by the timed write.
 */
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/msg.h"
#include "hddscope/probes.h"
#include "hddscope/session.h"

#define O(member) offsetof(struct hd_seek_opts, member)

static const char *const op_words[] = { "read", "write", NULL };
static const int op_values[] = { HD_OP_READ, HD_OP_WRITE };
static const char *const dist_words[] = { "log", "linear", NULL };
static const int dist_values[] = { 1, 0 };

static const struct hd_option seek_options[] = {
	{ .name = "op", .kind = HD_OPT_ENUM, .off = O(op), .words = op_words, .values = op_values, .def = "read",
	  .help = "access to time" },
	{ .name = "ref", .kind = HD_OPT_SIZE, .arg = "OFFSET", .off = O(ref),
	  .given = HD_OPT_GIVEN(struct hd_seek_opts, have_ref), .shown = "middle of the device",
	  .help = "nominal reference point" },
	{ .name = "range", .kind = HD_OPT_SIZE, .arg = "SIZE", .off = O(range), .def = "1g", .lo = 1,
	  .help = "largest |distance|, shrunk to fit the device" },
	{ .name = "min", .kind = HD_OPT_SIZE, .arg = "SIZE", .off = O(min), .def = "256k",
	  .help = "smallest |distance| for --dist log" },
	{ .name = "dist", .kind = HD_OPT_ENUM, .off = O(log), .words = dist_words, .values = dist_values,
	  .def = "log",
	  .help = "log: |d| log-uniform in [min, range], random sign;\n"
		  "linear: d uniform in [-range, +range]" },
	{ .name = "samples", .kind = HD_OPT_COUNT, .arg = "N", .off = O(samples), .def = "2000", .lo = 1,
	  .hi = 100000000, .help = "number of timed accesses" },
	HD_BLOCK_OPTION("block", struct hd_seek_opts, block, "4k", "bytes per access, a multiple of the sector"),
	{ .kind = HD_OPT_END },
};

static const struct hd_cmdspec seek_spec = {
	HD_PROBE_SPEC("seek", "[OPTIONS] [DEVICE]"),
	.intro = "Time accesses at signed distances from a reference point: the seek curve.\n"
		 "Each sample is a media read at a jittered reference R, a wait drawn uniformly\n"
		 "over one revolution (so that the target's rotational phase is random at every\n"
		 "distance), then one timed access at R + d.  Writes are labelled by a write\n"
		 "calibration of their own: cache, media, or unknown where the time cannot tell.\n"
		 "DEVICE is a block device, a regular file, or sim:NAME\n"
		 "(default: " HD_DEFAULT_TARGET ", a simulated drive built from measured data).\n"
		 "\n"
		 "Pattern:\n",
	.opts = seek_options,
	.outro = "\n"
		 "Output: seek-<op>.tsv unless -o is given.\n",
	.writes = 1,
};

/* Everything the sampling loop needs, fixed before the first access. */
struct seek_plan {
	uint64_t ref, jitter, block;	/* R is ref +- jitter/2 */
	struct hd_dist dist;
	uint64_t range_asked;
};

/*
 * Fit reference, jitter window and range into the device.  Returns 0 or
 * an exit code after printing why.
 */
static int seek_setup(const struct hd_seek_opts *o, const struct hd_dev *d, struct seek_plan *p)
{
	uint64_t al = d->io_align, size = d->size, room_lo, room_hi, r;

	if (o->block % al) {
		hd_err("--block %llu: not a multiple of the %u-byte access unit of %s",
		       (unsigned long long)o->block, (unsigned)al, d->path);
		return HD_EXIT_USAGE;
	}
	if (size < 2 * o->block) {
		hd_err("%s: device too small (%llu bytes; at least two blocks of %llu are needed)", d->path,
		       (unsigned long long)size, (unsigned long long)o->block);
		return HD_EXIT_SETUP;
	}
	p->block = o->block;
	p->ref = o->have_ref ? o->ref / al * al : size / 2 / al * al;
	if (p->ref > size - o->block) {
		hd_err("--ref %llu: beyond the end of %s (%llu bytes)", (unsigned long long)o->ref, d->path,
		       (unsigned long long)size);
		return HD_EXIT_USAGE;
	}
	/*
	 * The jitter window: a gigabyte, a sixteenth of smaller devices.  It
	 * is there for the cache, not the phase (the phase delay sees to
	 * that): every reference leaves its block and what the drive read
	 * ahead in the cache, so in a narrow window the next reference would
	 * mostly be a hit and the head could not be put there.  A window much
	 * larger than the cache keeps that rare.  Within a zone a distance in
	 * bytes is the same number of cylinders wherever R lies.
	 */
	p->jitter = ((uint64_t)1 << 30) < size / 16 ? ((uint64_t)1 << 30) : size / 16 / al * al;
	room_lo = p->ref >= p->jitter / 2 ? p->ref - p->jitter / 2 : 0;
	room_hi = size - o->block - p->ref >= p->jitter / 2 ? size - o->block - p->ref - p->jitter / 2 : 0;
	/* The range must fit on both sides, since d takes both signs. */
	r = o->range < room_lo ? o->range : room_lo;
	r = r < room_hi ? r : room_hi;
	p->range_asked = o->range;
	p->dist.log = o->log;
	p->dist.min = o->min;
	p->dist.range = r;
	p->dist.align = al;
	if (hd_dist_setup(&p->dist)) {
		hd_err("%s: no room for distances of at least %llu bytes around reference %llu "
		       "(at most %llu fit); lower --min or move --ref", d->path, (unsigned long long)o->min,
		       (unsigned long long)p->ref, (unsigned long long)r);
		return HD_EXIT_USAGE;
	}
	return 0;
}

/* What positioning needs to know about the current sample. */
struct seek_aim {
	const struct seek_plan *p;
	int64_t dist;
	enum hd_op op;
	void *wbuf;
};

/* A reference point: ref moved by an aligned random amount within the window. */
static uint64_t seek_pick_ref(struct hd_run *run, struct hd_rng *g, void *arg)
{
	const struct seek_plan *p = ((struct seek_aim *)arg)->p;
	uint64_t al = run->dev->io_align, units = p->jitter / al;

	if (units == 0)
		return p->ref;
	return p->ref - units / 2 * al + hd_rng_below(g, units + 1) * al;
}

/* A write sample reads its target's bytes first: only they are written back. */
static int seek_before(struct hd_run *run, uint64_t ref, void *arg, uint64_t *fail_off, int64_t *lat)
{
	struct seek_aim *a = arg;
	uint64_t target = (uint64_t)((int64_t)ref + a->dist);

	if (a->op != HD_OP_WRITE)
		return 0;
	*fail_off = target;
	return hd_dev_timed(run->dev, HD_OP_READ, a->wbuf, a->p->block, target, lat);
}

static int seek_run(void *vo)
{
	struct hd_seek_opts o = *(const struct hd_seek_opts *)vo;
	struct seek_plan p;
	struct hd_session s;
	struct hd_dev *d;
	void *buf = NULL, *wbuf = NULL;
	char outname[64];
	int ex;
	uint64_t i;

	if (o.op == HD_OP_WRITE && !o.c.write_ok) {
		hd_err("--op write changes data on %s; add --write to allow it (the probe writes back "
		       "exactly the bytes it read)", o.c.device);
		return HD_EXIT_SETUP;
	}
	snprintf(outname, sizeof(outname), "seek-%s.tsv", hd_op_name(o.op));
	ex = hd_session_begin(&s, "seek", &o.c, o.op == HD_OP_WRITE, outname);
	if (ex)
		return ex;
	d = s.dev;
	memset(&p, 0, sizeof(p));
	ex = seek_setup(&o, d, &p);
	if (!ex) {
		buf = hd_buf_alloc(d, p.block);
		wbuf = hd_buf_alloc(d, p.block);
		if (!buf || !wbuf) {
			hd_err("%s: cannot allocate %llu-byte buffers", d->path, (unsigned long long)p.block);
			ex = HD_EXIT_SETUP;
		}
	}
	if (ex) {
		hd_session_abort(&s);
		goto done;
	}
	hd_dfw_meta(s.w, "reference_bytes", "%llu", (unsigned long long)p.ref);
	hd_dfw_meta(s.w, "reference_jitter_bytes", "%llu", (unsigned long long)p.jitter);
	hd_dfw_meta(s.w, "range_bytes", "%llu", (unsigned long long)p.dist.range);
	if (p.dist.range < p.range_asked)
		hd_dfw_meta(s.w, "range_note", "shrunk from %llu to fit the device around the reference",
			    (unsigned long long)p.range_asked);
	hd_dfw_meta(s.w, "min_bytes", "%llu", (unsigned long long)(p.dist.log ? p.dist.min : 0));
	hd_session_phase(&s, 0);
	if (o.per_rev && s.id.rpm_nominal > 1)
		o.samples = (uint64_t)ceil((double)o.samples * 7200.0 / s.id.rpm_nominal);
	hd_dfw_meta(s.w, "params", "op=%s samples=%llu range=%llu min=%llu block=%llu dist=%s seed=%llu",
		    hd_op_name(o.op), (unsigned long long)o.samples, (unsigned long long)p.dist.range,
		    (unsigned long long)(p.dist.log ? p.dist.min : 0), (unsigned long long)p.block,
		    p.dist.log ? "log" : "linear", (unsigned long long)o.c.seed);
	s.run.total = o.samples;
	hd_session_calibrate(&s, buf, p.block);
	if (o.op == HD_OP_WRITE && !hd_session_stop(&s))
		hd_session_calibrate_writes(&s, wbuf, p.block);

	for (i = 0; i < o.samples && !hd_session_stop(&s); i++) {
		int64_t dist = hd_dist_next(&s.run.rng, &p.dist);
		struct seek_aim sa = { &p, dist, o.op, wbuf };
		/*
		 * A redone reference keeps its place, so the plan's distance and
		 * offset stand.  With --dist log no target lies within dist.min
		 * behind it; a linear draw that does (about 1 in 16000 at the
		 * default range) meets what the redo cached and is labelled so.
		 */
		struct hd_aim aim = { seek_pick_ref, seek_before, &sa, p.dist.log ? p.dist.min : 64 << 10 };

		if (hd_session_aimed(&s, &aim, o.op, dist, buf, wbuf, p.block, 0))
			break;
		hd_run_progress(&s.run, i + 1, o.samples);
	}
	ex = hd_session_end(&s, "distance_bytes offset_bytes latency_ms op class delay_ms", i == o.samples);
done:
	hd_buf_free(buf, p.block);
	hd_buf_free(wbuf, p.block);
	return ex;
}

const struct hd_probe hd_probe_seek = { "seek", &seek_spec, sizeof(struct hd_seek_opts), seek_run };

int hd_cmd_seek(int argc, char **argv)
{
	return hd_probe_main(&hd_probe_seek, argc, argv);
}
