/*
 * The media probe: media read time by transfer size.  Sizes from one
 * access unit up to --max-size in powers of two, each read --reps times at
 * random tracks within +-range of a central reference, after a positioning
 * read at the reference.  The growth of latency with size is the media
 * rate of that part of the disk (or the interface rate, where slower).
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

#define O(member) offsetof(struct hd_media_opts, member)

static const struct hd_option media_options[] = {
	HD_BLOCK_OPTION("max-size", struct hd_media_opts, max_size, "1m",
			"largest transfer, the access unit times a power of two"),
	{ .name = "range", .kind = HD_OPT_SIZE, .arg = "SIZE", .off = O(range), .def = "16m",
	  .help = "largest distance from the reference" },
	{ .name = "ref", .kind = HD_OPT_SIZE, .arg = "OFFSET", .off = O(ref),
	  .given = HD_OPT_GIVEN(struct hd_media_opts, have_ref), .shown = "middle of the device",
	  .help = "the central reference" },
	{ .name = "reps", .kind = HD_OPT_COUNT, .arg = "N", .off = O(reps), .def = "20", .lo = 1, .hi = 100000,
	  .help = "reads per size" },
	{ .kind = HD_OPT_END },
};

static const struct hd_cmdspec media_spec = {
	HD_PROBE_SPEC("media", "[OPTIONS] [DEVICE]"),
	.intro = "Media read time by transfer size: sizes from one access unit up to\n"
		 "--max-size in powers of two, each read --reps times at random positions\n"
		 "within +-range of a central reference, each after a positioning read at the\n"
		 "reference.  Reads only.\n"
		 "\n",
	.opts = media_options,
	.outro = "\n"
		 "Output: media.tsv unless -o is given.\n",
};

struct media_aim {
	uint64_t ref, jitter;
};

/* The reference, moved within a small window so that rotational phase varies. */
static uint64_t media_pick(struct hd_run *run, struct hd_rng *g, void *arg)
{
	struct media_aim *a = arg;
	uint64_t al = run->dev->io_align, units = a->jitter / al;

	return units ? a->ref - units / 2 * al + hd_rng_below(g, units + 1) * al : a->ref;
}

static int media_run(void *vo)
{
	struct hd_media_opts o = *(const struct hd_media_opts *)vo;
	struct hd_session s;
	struct hd_dev *d;
	struct media_aim a;
	uint32_t *tasks = NULL;
	uint64_t sizes[64], nsizes = 0, ntasks, i = 0, al, range, lo, hi, room;
	void *buf = NULL;
	int rc, ex;

	ex = hd_session_begin(&s, "media", &o.c, 0, "media.tsv");
	if (ex)
		return ex;
	d = s.dev;
	al = d->io_align;
	for (uint64_t z = al; z <= o.max_size && nsizes < 64; z *= 2)
		sizes[nsizes++] = z;
	if (nsizes == 0 || o.max_size % al) {
		hd_err("--max-size %llu: not a multiple of the %u-byte access unit of %s",
		       (unsigned long long)o.max_size, (unsigned)al, d->path);
		hd_session_abort(&s);
		return HD_EXIT_USAGE;
	}
	/* The sizes double from the access unit: a largest size off that ladder would quietly shrink. */
	if (sizes[nsizes - 1] != o.max_size) {
		hd_err("--max-size %llu: sizes double from the %u-byte access unit of %s, so the largest is "
		       "%llu or %llu", (unsigned long long)o.max_size, (unsigned)al, d->path,
		       (unsigned long long)sizes[nsizes - 1], (unsigned long long)sizes[nsizes - 1] * 2);
		hd_session_abort(&s);
		return HD_EXIT_USAGE;
	}
	if (d->size < 4 * sizes[nsizes - 1]) {
		hd_err("%s: device too small (%llu bytes) for %llu-byte reads", d->path, (unsigned long long)d->size,
		       (unsigned long long)sizes[nsizes - 1]);
		hd_session_abort(&s);
		return HD_EXIT_SETUP;
	}
	a.ref = o.have_ref ? o.ref / al * al : d->size / 2 / al * al;
	if (a.ref + sizes[nsizes - 1] > d->size) {
		hd_err("--ref %llu: beyond the end of %s (%llu bytes)", (unsigned long long)o.ref, d->path,
		       (unsigned long long)d->size);
		hd_session_abort(&s);
		return HD_EXIT_USAGE;
	}
	a.jitter = (256u << 10) < d->size / 64 ? (256u << 10) : d->size / 64 / al * al;
	/* Targets [ref - range, ref + range] must hold the largest read, jitter included. */
	room = d->size - sizes[nsizes - 1] - a.jitter / 2;
	lo = a.ref > a.jitter / 2 ? a.ref - a.jitter / 2 : 0;
	hi = a.ref + a.jitter / 2 < room ? room - a.ref - a.jitter / 2 : 0;
	range = o.range < lo ? o.range : lo;
	range = (range < hi ? range : hi) / al * al;
	ntasks = nsizes * o.reps;
	tasks = calloc(ntasks, sizeof(*tasks));
	buf = hd_buf_alloc(d, sizes[nsizes - 1]);
	if (!tasks || !buf) {
		hd_err("%s: out of memory", d->path);
		hd_session_abort(&s);
		ex = HD_EXIT_SETUP;
		goto out;
	}
	for (uint64_t t = 0; t < ntasks; t++)
		tasks[t] = (uint32_t)(t % nsizes);
	for (uint64_t t = ntasks - 1; t > 0; t--) {
		uint64_t j = hd_rng_below(&s.run.rng, t + 1);
		uint32_t tmp = tasks[t];
		tasks[t] = tasks[j];
		tasks[j] = tmp;
	}
	hd_dfw_meta(s.w, "reference_bytes", "%llu", (unsigned long long)a.ref);
	hd_dfw_meta(s.w, "range_bytes", "%llu", (unsigned long long)range);
	if (range < o.range)
		hd_dfw_meta(s.w, "range_note", "shrunk from %llu to fit the device around the reference",
			    (unsigned long long)o.range);
	hd_dfw_meta(s.w, "phase", "random by placement: each target lies anywhere within range_bytes of the central "
		    "reference, independently of where in its window the positioning read was; no delay");
	hd_dfw_meta(s.w, "params", "max_size=%llu range=%llu reps=%llu seed=%llu",
		    (unsigned long long)sizes[nsizes - 1], (unsigned long long)range, (unsigned long long)o.reps,
		    (unsigned long long)o.c.seed);
	s.run.total = ntasks;
	hd_session_calibrate(&s, buf, al);

	for (i = 0; i < ntasks && !hd_session_stop(&s); i++) {
		uint64_t size = sizes[tasks[i]], r = 0, target = 0, units = range / al;
		int64_t dist = ((int64_t)hd_rng_below(&s.run.rng, 2 * units + 1) - (int64_t)units) * (int64_t)al;
		int64_t lat = 0;
		struct hd_aim aim = { media_pick, NULL, &a, 0 };
		enum hd_op op = HD_OP_READ;
		enum hd_class cls;
		uint64_t rowsize = al;	/* the positioning read, unless it got to the timed one */

		rc = hd_position(&s.run, &aim, buf, al, &r, &target, &op, &lat);
		if (hd_interrupted)
			break;
		if (rc == 0) {
			rowsize = size;
			/* Within +-range of the central reference; the jitter moves only the positioning read. */
			target = (uint64_t)((int64_t)a.ref + dist);
			rc = hd_dev_timed(d, HD_OP_READ, buf, size, target, &lat);
			if (rc == -EINTR && hd_interrupted)
				break;
		} else {
			dist = (int64_t)target - (int64_t)a.ref;
		}
		hd_session_sample(&s, rc, HD_OP_READ, target, lat, &cls);
		/*
		 * The threshold was calibrated with one-unit reads; a larger read
		 * that hits the cache costs more (its transfer) and is labelled
		 * media, so only plainly fast reads are called hits.
		 */
		fprintf(s.rows, "%" PRIu64 "\t%" PRId64 "\t", rowsize, dist);
		hd_put_ms(s.rows, lat);
		fprintf(s.rows, "\t%s\n", hd_class_name(cls));
		hd_run_progress(&s.run, i + 1, ntasks);
	}
	ex = hd_session_end(&s, "size_bytes distance_bytes latency_ms class", i == ntasks);
out:
	free(tasks);
	hd_buf_free(buf, sizes[nsizes - 1]);
	return ex;
}

const struct hd_probe hd_probe_media = { "media", &media_spec, sizeof(struct hd_media_opts), media_run };

int hd_cmd_media(int argc, char **argv)
{
	return hd_probe_main(&hd_probe_media, argc, argv);
}
