/*
 * The response probe: response time against seek distance over the whole
 * stroke.  A grid of log-spaced distances from one access unit to the full
 * device, each measured --reps times from random starting points in both
 * directions, reads and (with --write) data-preserving writes, in random
 * order.  The spread at each distance is what tells a steady drive from an
 * unsteady one.  With --write-cap, rounds of writes follow the plan while
 * the sequential write-stability test (stats.h) cannot yet tell healthy
 * from unstable, up to the cap.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/msg.h"
#include "hddscope/probes.h"
#include "hddscope/session.h"
#include "hddscope/stats.h"

#define O(member) offsetof(struct hd_response_opts, member)

static const struct hd_option response_options[] = {
	{ .name = "points", .kind = HD_OPT_COUNT, .arg = "N", .off = O(points), .def = "48", .lo = 40, .hi = 10000,
	  .help = "distances in the grid, 40 or more" },
	{ .name = "reps", .kind = HD_OPT_COUNT, .arg = "N", .off = O(reps), .def = "25", .lo = 1, .hi = 100000,
	  .help = "samples per distance, split between the directions" },
	HD_BLOCK_OPTION("block", struct hd_response_opts, block, "4k", "bytes per access"),
	{ .name = "write-cap", .kind = HD_OPT_COUNT, .arg = "N", .off = O(write_cap), .def = "0", .hi = 10000000,
	  .help = "with --write: rounds of writes after the plan until write\n"
		  "stability is decided, up to N writes in all; 0: the plan's only" },
	{ .kind = HD_OPT_END },
};

static const struct hd_cmdspec response_spec = {
	HD_PROBE_SPEC("response", "[OPTIONS] [DEVICE]"),
	.intro = "Response time against seek distance over the whole stroke: a grid of\n"
		 "log-spaced distances from one access unit to the full device, each timed\n"
		 "--reps times (the distances beyond two blocks and up to 16, which time\n"
		 "the controller overhead, four times) from random starting points, in both\n"
		 "directions.  Each sample is a media read at the start, a wait drawn\n"
		 "uniformly over one revolution (none within two blocks, which time the\n"
		 "rotation), then one timed access at start +- distance.  With --write, writes are timed too (data-preserving).\n"
		 "\n",
	.opts = response_options,
	.outro = "\n"
		 "Output: response.tsv unless -o is given.\n",
	.writes = 1,
};

/* One planned sample: grid point, direction, operation. */
struct resp_task {
	uint32_t point;
	int8_t sign;
	uint8_t op;
};

struct resp_aim {
	uint64_t dist, block, size;
	int sign;
	enum hd_op op;
	void *wbuf;
};

/* A random start from which start + sign * dist stays inside the device. */
static uint64_t resp_pick(struct hd_run *run, struct hd_rng *g, void *arg)
{
	struct resp_aim *a = arg;
	uint64_t al = run->dev->io_align, units = (a->size - a->block - a->dist) / al;
	uint64_t s = hd_rng_below(g, units + 1) * al;

	return a->sign > 0 ? s : s + a->dist;
}

static int resp_before(struct hd_run *run, uint64_t start, void *arg, uint64_t *fail_off, int64_t *lat)
{
	struct resp_aim *a = arg;

	if (a->op != HD_OP_WRITE)
		return 0;
	*fail_off = a->sign > 0 ? start + a->dist : start - a->dist;
	return hd_dev_timed(run->dev, HD_OP_READ, a->wbuf, a->block, *fail_off, lat);
}

/*
 * n distinct aligned distances, geometric from one unit to the largest that
 * fits; where rounding would repeat a distance the next unit is taken.
 */
static uint64_t *resp_grid(uint64_t n, uint64_t maxunits, uint64_t al)
{
	uint64_t *g = calloc(n, sizeof(*g)), prev = 0;

	if (!g)
		return NULL;
	for (uint64_t k = 0; k < n; k++) {
		double u = exp(log((double)maxunits) * (double)k / (double)(n - 1));
		uint64_t v = (uint64_t)llround(u);

		if (v <= prev)
			v = prev + 1;
		if (v > maxunits)
			v = maxunits;
		g[k] = v * al;
		prev = v;
	}
	return g;
}

/* The writes taken so far, in order: |distance| and latency (ms), media and cache rows only. */
struct resp_writes {
	double *dist, *lat;
	size_t n, cap;
};

/* Keep the last row when it is a write the stability test counts; -ENOMEM. */
static int resp_keep(struct resp_writes *w, const struct hd_session *s, const struct resp_aim *a)
{
	if (a->op != HD_OP_WRITE || (s->last_cls != HD_CLASS_MEDIA && s->last_cls != HD_CLASS_CACHE))
		return 0;
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 1024;
		double *d = realloc(w->dist, cap * sizeof(*d)), *l;

		if (!d)
			return -ENOMEM;
		w->dist = d;
		l = realloc(w->lat, cap * sizeof(*l));
		if (!l)
			return -ENOMEM;
		w->lat = l;
		w->cap = cap;
	}
	w->dist[w->n] = (double)a->dist;
	w->lat[w->n++] = (double)s->last_lat_ns / 1e6;
	return 0;
}

/* One timed sample of task t; 1 when the run must stop. */
static int resp_sample(struct hd_session *s, const struct hd_response_opts *o, const uint64_t *grid,
		       const struct resp_task *t, void *buf, void *wbuf, struct resp_writes *w)
{
	struct resp_aim a = { grid[t->point], o->block, s->dev->size, t->sign, (enum hd_op)t->op, wbuf };
	/*
	 * A write's target was read just before its reference, and at a
	 * tiny distance behind, what the drive read ahead from it holds
	 * the reference: a new reference would fare no better.  A longer
	 * read from further back puts the head there, and what it leaves
	 * in the read cache is nothing to a write.  A read keeps to new
	 * references: its target must not be in the cache.
	 */
	struct hd_aim aim = { resp_pick, resp_before, &a, a.op == HD_OP_WRITE ? (uint64_t)4 << 20 : 0 };

	/* The row gives the start (the reference): response charts run from it. */
	if (hd_session_aimed(s, &aim, a.op, t->sign * (int64_t)a.dist, buf, wbuf, o->block, 1))
		return 1;
	if (resp_keep(w, s, &a)) {
		s->fatal = 1;
		return 1;
	}
	return 0;
}

/* Shuffle n tasks with the plan's generator, so that drift cannot pose as shape. */
static void resp_shuffle(struct hd_session *s, struct resp_task *tasks, uint64_t n)
{
	for (uint64_t t = n ? n - 1 : 0; t > 0; t--) {
		uint64_t j = hd_rng_below(&s->run.rng, t + 1);
		struct resp_task tmp = tasks[t];
		tasks[t] = tasks[j];
		tasks[j] = tmp;
	}
}

/*
 * The distances beyond two blocks and up to 16, phase-randomised and on
 * one track but for a head switch, are the witnesses of the controller
 * overhead (the least time of a read that needs no positioning and no
 * wait, fit's constant): the bottom of a band one revolution wide, found
 * to about a revolution over their number, so they get NEAR_REPS times
 * the samples.
 */
#define NEAR_REPS 4

static uint64_t resp_reps(const struct hd_response_opts *o, uint64_t dist)
{
	return dist > 2 * o->block && dist <= 16 * o->block ? NEAR_REPS * o->reps : o->reps;
}

/*
 * The plan: every point's samples, both directions alike, each with every
 * op, then a random order so drift cannot pose as shape.  *n tasks; NULL
 * when out of memory.
 */
static struct resp_task *resp_plan(struct hd_session *s, const struct hd_response_opts *o, const uint64_t *grid,
				   int nops, uint64_t *n)
{
	struct resp_task *tasks;
	uint64_t t = 0;

	*n = 0;
	for (uint64_t p = 0; p < o->points; p++)
		*n += resp_reps(o, grid[p]) * (uint64_t)nops;
	tasks = calloc(*n, sizeof(*tasks));
	if (!tasks)
		return NULL;
	for (uint64_t p = 0; p < o->points; p++)
		for (uint64_t r = 0; r < resp_reps(o, grid[p]); r++)
			for (int op = 0; op < nops; op++, t++)
				tasks[t] = (struct resp_task){ (uint32_t)p, (int8_t)((r & 1) ? -1 : 1), (uint8_t)op };
	resp_shuffle(s, tasks, *n);
	return tasks;
}

/* The decision on the writes so far, as the header gives it. */
static int resp_decide(const struct hd_write_test *wt, const struct resp_writes *w, struct hd_sprt *t)
{
	uint64_t slow;

	return hd_write_decide(wt, w->dist, w->lat, w->n, t, &slow);
}

/*
 * After the plan: rounds of writes (every distance, reps each, both
 * directions alike, shuffled) while the test is undecided, up to
 * o->write_cap writes in all; the header says how it ended.  *done counts
 * the samples taken; 1 when the run stopped early.
 */
static int resp_extend(struct hd_session *s, const struct hd_response_opts *o, const uint64_t *grid, void *buf,
		       void *wbuf, struct resp_writes *w, uint64_t *done)
{
	struct hd_write_test wt = { (double)s->phase_rev_ns / 1e6, HD_WRITE_SLOW_OK, HD_WRITE_SLOW_UNSTABLE,
				    HD_WRITE_RISK_ALPHA, HD_WRITE_RISK_BETA };
	uint64_t round = o->points * o->reps, writes = w->n;
	struct resp_task *tasks = calloc(round, sizeof(*tasks));
	struct hd_sprt t;
	int stop = 0;

	if (!tasks || resp_decide(&wt, w, &t)) {
		free(tasks);
		return 0;
	}
	while (t.decision == HD_SPRT_UNDECIDED && writes < o->write_cap && !stop) {
		for (uint64_t p = 0, k = 0; p < o->points; p++)
			for (uint64_t r = 0; r < o->reps; r++, k++)
				tasks[k] = (struct resp_task){ (uint32_t)p, (int8_t)((r & 1) ? -1 : 1), HD_OP_WRITE };
		resp_shuffle(s, tasks, round);
		s->run.total += round < o->write_cap - writes ? round : o->write_cap - writes;
		for (uint64_t k = 0; k < round && writes < o->write_cap && !stop; k++, writes++) {
			stop = hd_session_stop(s) || resp_sample(s, o, grid, &tasks[k], buf, wbuf, w);
			*done += !stop;
			hd_run_progress(&s->run, *done, s->run.total);
		}
		if (resp_decide(&wt, w, &t))
			break;
	}
	free(tasks);
	if (t.decision == HD_SPRT_UNDECIDED)
		hd_dfw_meta(s->w, "write_decision", "undecided after %zu writes (cap %llu)", w->n,
			    (unsigned long long)o->write_cap);
	else
		hd_dfw_meta(s->w, "write_decision", "%s after %llu of %zu writes (cap %llu)",
			    t.decision == HD_SPRT_H0 ? "healthy" : "unstable", (unsigned long long)t.decided_at, w->n,
			    (unsigned long long)o->write_cap);
	return stop;
}

static int response_run(void *vo)
{
	struct hd_response_opts o = *(const struct hd_response_opts *)vo;
	struct hd_session s;
	struct hd_dev *d;
	struct resp_task *tasks = NULL;
	uint64_t *grid = NULL, ntasks = 0, i = 0, al;
	void *buf = NULL, *wbuf = NULL;
	struct resp_writes w = { 0 };
	char cap[48];
	int ex, nops, ran;

	ex = hd_session_begin(&s, "response", &o.c, o.c.write_ok, "response.tsv");
	if (ex)
		return ex;
	d = s.dev;
	al = d->io_align;
	if (o.block % al) {
		hd_err("--block %llu: not a multiple of the %u-byte access unit of %s", (unsigned long long)o.block,
		       (unsigned)al, d->path);
		hd_session_abort(&s);
		return HD_EXIT_USAGE;
	}
	if (d->size / al < o.points + o.block / al + 1) {
		hd_err("%s: device too small for %llu distinct distances (%llu bytes)", d->path,
		       (unsigned long long)o.points, (unsigned long long)d->size);
		hd_session_abort(&s);
		return HD_EXIT_SETUP;
	}
	nops = o.c.write_ok ? 2 : 1;
	snprintf(cap, sizeof(cap), " write_cap=%llu", (unsigned long long)o.write_cap);
	grid = resp_grid(o.points, (d->size - o.block) / al, al);
	tasks = grid ? resp_plan(&s, &o, grid, nops, &ntasks) : NULL;
	buf = hd_buf_alloc(d, o.block);
	wbuf = hd_buf_alloc(d, o.block);
	if (!grid || !tasks || !buf || !wbuf) {
		hd_err("%s: out of memory for the samples of %llu distances", d->path, (unsigned long long)o.points);
		ex = HD_EXIT_SETUP;
		hd_session_abort(&s);
		goto out;
	}
	hd_dfw_meta(s.w, "params", "points=%llu reps=%llu near_reps=%llu block=%llu ops=%s seed=%llu%s",
		    (unsigned long long)o.points, (unsigned long long)o.reps, (unsigned long long)(NEAR_REPS * o.reps),
		    (unsigned long long)o.block, o.c.write_ok ? "read,write" : "read", (unsigned long long)o.c.seed,
		    o.write_cap && o.c.write_ok ? cap : "");
	hd_dfw_meta(s.w, "distance_min_bytes", "%llu", (unsigned long long)grid[0]);
	hd_dfw_meta(s.w, "distance_max_bytes", "%llu", (unsigned long long)grid[o.points - 1]);
	s.run.total = ntasks;
	/*
	 * Distances up to two blocks are there to time the rotation from the
	 * reference's own phase (the revolution, track sizes, read-ahead: fit
	 * reads them so); every other one is phase-randomised.
	 */
	hd_session_phase(&s, 2 * o.block);
	hd_session_calibrate(&s, buf, o.block);
	if (o.c.write_ok && !hd_session_stop(&s))
		hd_session_calibrate_writes(&s, wbuf, o.block);

	for (i = 0; i < ntasks && !hd_session_stop(&s); i++) {
		if (resp_sample(&s, &o, grid, &tasks[i], buf, wbuf, &w))
			break;
		hd_run_progress(&s.run, i + 1, ntasks);
	}
	ran = i == ntasks;
	/* A run whose revolution is unknown has nothing to count slow writes by. */
	if (ran && o.c.write_ok && o.write_cap && s.phase_rev_ns > 0 && s.phase_rev_ns != HD_PHASE_REV_UNKNOWN_NS)
		ran = !resp_extend(&s, &o, grid, buf, wbuf, &w, &i);
	ex = hd_session_end(&s, "distance_bytes start_bytes latency_ms op class delay_ms", ran);
out:
	free(grid);
	free(tasks);
	hd_buf_free(buf, o.block);
	hd_buf_free(wbuf, o.block);
	free(w.dist);
	free(w.lat);
	return ex;
}

const struct hd_probe hd_probe_response = { "response", &response_spec, sizeof(struct hd_response_opts), response_run };

int hd_cmd_response(int argc, char **argv)
{
	return hd_probe_main(&hd_probe_response, argc, argv);
}
