/*
 * The probes against known truth: each runs through its command on a
 * simulated drive whose model is written here, and what it measured is
 * checked against numbers computed from that model (seek curve, layout,
 * skews, overheads).  The probes see only the device interface; only this
 * test looks inside the model.
 */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/cmd.h"
#include "hddscope/probe.h"
#include "hddscope/datafile.h"
#include "hddscope/sim.h"
#include "hddscope/stats.h"
#include "testutil.h"

/*
 * Three zones, skews no shorter than the switches they cover (so a
 * sequential stream loses no revolution), a fast interface (the media
 * sets every rate), read-ahead, write cache off.
 */
#define MODEL                                   \
	"format = 1\n"                          \
	"name = probe test drive\n"             \
	"rpm = 7200\n"                          \
	"sector_bytes = 512\n"                  \
	"surfaces = 4\n"                        \
	"zone = 0 1999 400 40 60\n"             \
	"zone = 2000 3999 300 30 45\n"          \
	"zone = 4000 5999 200 20 30\n"          \
	"seek = 1 1.0\n"                        \
	"seek = 100 3.0\n"                      \
	"seek = 1000 6.0\n"                     \
	"seek = 5999 12.0\n"                    \
	"head_switch_ms = 0.5\n"                \
	"write_settle_ms = 1.5\n"               \
	"read_overhead_ms = 0.2\n"              \
	"write_overhead_ms = 0.3\n"             \
	"cache_hit_overhead_ms = 0.1\n"         \
	"interface_mb_s = 300\n"                \
	"write_cache = off\n"                   \
	"queue_depth = 1\n"
/* Read-ahead for sequential streams; without it the head stays where a read left it. */
#define CACHE "cache_segments = 4\ncache_segment_kb = 256\nreadahead_kb = 256\n"
#define NOCACHE "cache_segment_kb = 0\nreadahead_kb = 0\n"

static char spec[300];
static struct hd_sim_model *model;

/* Write MODEL plus extra as the drive under test. */
static void use_model(const char *extra)
{
	char err[256], text[2048];

	snprintf(text, sizeof(text), "%s%s", MODEL, extra);
	snprintf(spec, sizeof(spec), "sim:%s", tu_writef("test.drive", "%s", text));
	hd_sim_model_free(model);
	ck_assert_msg(hd_sim_model_parse(text, strlen(text), "test.drive", &model, err, sizeof(err)) == 0, "%s", err);
}

static void setup(void)
{
	tu_mkdir();
	model = NULL;
	use_model(CACHE);
}

static void teardown(void)
{
	hd_sim_model_free(model);
	tu_rmdir();
}

/* Run a probe on the drive under test (options NULL-terminated) and read its complete data file. */
#define run_probe(cmd, name, ...) read_complete(tu_probe(cmd, spec, name, __VA_ARGS__), name)

static struct hd_df *read_complete(int rc, const char *name)
{
	char file[64];
	struct hd_df *df;

	ck_assert_int_eq(rc, 0);
	snprintf(file, sizeof(file), "%s.tsv", name);
	df = tu_read(tu_path(file));
	ck_assert_str_eq(hd_df_meta(df, "complete"), "yes");
	return df;
}

static const struct hd_sim_zone *zone_of_cyl(uint32_t cyl)
{
	for (size_t i = 0; i < model->nzones; i++)
		if (cyl >= model->zones[i].first_cyl && cyl <= model->zones[i].last_cyl)
			return &model->zones[i];
	ck_abort_msg("cylinder %u in no zone", cyl);
	return NULL;
}

/*
 * The sustained media rate of a zone in bytes per ms: a cylinder's sectors
 * pass in one revolution per track plus the skews of its head switches and
 * the cylinder switch that follows.
 */
static double zone_rate(const struct hd_sim_zone *z)
{
	double secs = (double)model->surfaces * z->spt;
	double turns = (secs + (model->surfaces - 1) * (double)z->track_skew + z->cyl_skew) / z->spt;

	return secs * model->sector_bytes / (turns * hd_sim_rev_ms(model));
}

static struct hd_sim_chs chs_of(double byte)
{
	struct hd_sim_chs c;

	ck_assert_int_eq(hd_sim_lba_to_chs(model, (uint64_t)byte / model->sector_bytes, &c), 0);
	return c;
}

/* Positioning by the model from one address to another: seek, or head switch, or none. */
static double positioning_ms(struct hd_sim_chs a, struct hd_sim_chs b)
{
	if (a.cyl != b.cyl)
		return hd_sim_seek_ms(model, a.cyl > b.cyl ? a.cyl - b.cyl : b.cyl - a.cyl);
	return a.surface != b.surface ? model->head_switch_ms : 0;
}

/*
 * The same seed gives the same plan whatever the drive does: a drive with a
 * read cache (a calibrated threshold, reference reads that hit and are
 * redone) and the same drive without one (no threshold, nothing redone)
 * must see the same distances and offsets, row for row.
 */
static const struct plan_case {
	int (*cmd)(int, char **);
	const char *name, *col_a, *col_b, *opt;
} plan_cases[] = {
	{ hd_cmd_seek, "seek", "distance_bytes", "offset_bytes", "--samples=400" },
	{ hd_cmd_response, "response", "distance_bytes", "start_bytes", "--reps=6" },
	{ hd_cmd_media, "media", "size_bytes", "distance_bytes", "--reps=10" },
};

START_TEST(test_plan_ignores_cache)
{
	const struct plan_case *c = &plan_cases[_i];
	struct hd_df *with, *without;
	const struct hd_df_col *a1, *b1, *a2, *b2;

	with = run_probe(c->cmd, c->name, c->opt, "--seed=5", NULL);
	use_model(NOCACHE);
	without = run_probe(c->cmd, c->name, c->opt, "--seed=5", NULL);
	/* The two runs did differ: one calibrated a threshold, the other found no cache. */
	ck_assert_str_ne(hd_df_meta(with, "cache_threshold_ms"), "none");
	ck_assert_str_eq(hd_df_meta(without, "cache_threshold_ms"), "none");
	a1 = tu_col(with, c->col_a);
	b1 = tu_col(with, c->col_b);
	a2 = tu_col(without, c->col_a);
	b2 = tu_col(without, c->col_b);
	ck_assert_uint_eq(with->nrows, without->nrows);
	for (size_t i = 0; i < with->nrows; i++) {
		ck_assert_msg(a1->num[i] == a2->num[i] && b1->num[i] == b2->num[i],
			      "%s row %zu: %s %.0f %s %.0f with a cache, %.0f %.0f without", c->name, i, c->col_a,
			      a1->num[i], c->col_b, b1->num[i], a2->num[i], b2->num[i]);
	}
	hd_df_free(with);
	hd_df_free(without);
}
END_TEST

START_TEST(test_response_against_model)
{
	struct hd_df *df;
	const struct hd_df_col *dist, *start, *lat, *op, *cls;
	double sum[2] = { 0, 0 }, near_med, far_med, *near, *far, full;
	size_t n[2] = { 0, 0 }, nn = 0, nf = 0, checked = 0;

	/* Without read-ahead the head is where the positioning read left it. */
	use_model(NOCACHE);
	df = run_probe(hd_cmd_response, "response", "--write", "--points", "40", "--reps", "100", NULL);
	dist = hd_df_col(df, "distance_bytes");
	start = hd_df_col(df, "start_bytes");
	lat = hd_df_col(df, "latency_ms");
	op = hd_df_col(df, "op");
	cls = hd_df_col(df, "class");
	near = calloc(df->nrows, sizeof(double));
	far = calloc(df->nrows, sizeof(double));
	full = (double)model->sectors * model->sector_bytes;

	/* The distances beyond two blocks and up to 16 take four times the samples. */
	{
		double seen[64];
		size_t ns = 0, near_pts = 0;

		for (size_t i = 0; i < df->nrows; i++) {
			double d = fabs(dist->num[i]);
			size_t k = 0;

			while (k < ns && seen[k] != d)
				k++;
			if (k == ns && ns < 64) {
				seen[ns++] = d;
				near_pts += d > 2 * 4096 && d <= 16 * 4096;
			}
		}
		ck_assert_uint_eq(ns, 40);
		ck_assert_uint_ge(near_pts, 1);
		ck_assert_uint_eq(df->nrows, (40 + 3 * near_pts) * 100 * 2);
	}
	for (size_t i = 0; i < df->nrows; i++) {
		int w = strcmp(hd_df_str(op, i), "write") == 0;
		double d = fabs(dist->num[i]), pos, floor_ms;
		struct hd_sim_chs a, b;

		if (strcmp(hd_df_str(cls, i), "media") != 0)
			continue;
		/* The head is where the positioning read's last sector was. */
		a = chs_of(start->num[i] + 4096 - model->sector_bytes);
		b = chs_of(start->num[i] + dist->num[i]);
		pos = positioning_ms(a, b);
		/* The lowest a media access can cost: overhead, positioning, settle on a write's seek. */
		floor_ms = (w ? model->write_overhead_ms : model->read_overhead_ms) + pos +
			   (w && a.cyl != b.cyl ? model->write_settle_ms : 0);
		ck_assert_msg(lat->num[i] >= floor_ms - 1e-6, "row %zu: %s over %.0f bytes took %.4f ms, model floor %.4f",
			      i, hd_df_str(op, i), dist->num[i], lat->num[i], floor_ms);
		/*
		 * And at most a revolution of rotational wait, plus for a transfer
		 * that crosses a track a head switch (settled, on a write) and one
		 * more revolution, plus the transfer itself, more.
		 */
		ck_assert_msg(lat->num[i] <= floor_ms + 2 * hd_sim_rev_ms(model) + model->head_switch_ms +
						    model->write_settle_ms + 8.0 / 200 * hd_sim_rev_ms(model),
			      "row %zu: %s %.0f from %.0f (cyl %u/%u surf %u/%u sec %u/%u): %.4f ms, floor %.4f", i,
			      hd_df_str(op, i), dist->num[i], start->num[i], a.cyl, b.cyl, a.surface, b.surface, a.sector,
			      b.sector, lat->num[i], floor_ms);
		checked++;
		/* The settle applies where the head moves to another cylinder: compare those accesses. */
		if (a.cyl != b.cyl) {
			sum[w] += lat->num[i];
			n[w]++;
		}
		if (w)
			continue;
		if (d >= 1e6 && d <= 1e7)
			near[nn++] = lat->num[i];
		if (d >= full / 2)
			far[nf++] = lat->num[i];
	}
	ck_assert_uint_gt(checked, df->nrows * 9 / 10);
	/* The median rises with distance: by at least half the seek curve's rise between the two. */
	hd_sort_doubles(near, nn);
	hd_sort_doubles(far, nf);
	near_med = hd_percentile_sorted(near, nn, 50);
	far_med = hd_percentile_sorted(far, nf, 50);
	ck_assert_uint_gt(nn, 100);
	ck_assert_uint_gt(nf, 100);
	ck_assert_msg(far_med - near_med >= 0.5 * (hd_sim_seek_ms(model, 3000) - hd_sim_seek_ms(model, 10)),
		      "median %.3f ms far, %.3f ms near", far_med, near_med);
	/*
	 * Write cache off: where the head moves, writes cost the settle (and
	 * their extra overhead) more than reads at the same distances.
	 */
	{
		double diff = sum[1] / (double)n[1] - sum[0] / (double)n[0];
		double want = model->write_settle_ms;
		/*
		 * Each mean carries its rotational waits, uniform over a revolution
		 * with the phase random: the difference of the two means is off by
		 * up to three of its standard errors.
		 */
		double se = hd_sim_rev_ms(model) / sqrt(12.0) * sqrt(1.0 / (double)n[0] + 1.0 / (double)n[1]);

		ck_assert_msg(diff >= want - 3 * se, "writes cost %.3f ms more than reads, want at least %.3f - %.3f",
			      diff, want, 3 * se);
		ck_assert_msg(diff <= want + (model->write_overhead_ms - model->read_overhead_ms) + 0.5 + 3 * se,
			      "writes cost %.3f ms more than reads", diff);
	}
	free(near);
	free(far);
	hd_df_free(df);
}
END_TEST

START_TEST(test_media_rate)
{
	struct hd_df *df = run_probe(hd_cmd_media, "media", NULL);
	const struct hd_df_col *size = hd_df_col(df, "size_bytes"), *lat = hd_df_col(df, "latency_ms");
	const char *ref = hd_df_meta(df, "reference_bytes");
	double sx = 0, sy = 0, sxx = 0, sxy = 0, slope, want;
	size_t n = 0;
	struct hd_sim_chs c = chs_of(atof(ref));

	/* The reference and every read within +-16 MiB of it lie in one zone. */
	ck_assert_ptr_eq(zone_of_cyl(c.cyl), zone_of_cyl(chs_of(atof(ref) - (17 << 20)).cyl));
	ck_assert_ptr_eq(zone_of_cyl(c.cyl), zone_of_cyl(chs_of(atof(ref) + (17 << 20)).cyl));
	want = zone_rate(zone_of_cyl(c.cyl));
	ck_assert_uint_eq(df->nrows, 12 * 20);
	/* Least squares over the sizes where transfer dominates: latency grows by size / rate. */
	for (size_t i = 0; i < df->nrows; i++) {
		if (size->num[i] < 65536)
			continue;
		sx += size->num[i];
		sy += lat->num[i];
		sxx += size->num[i] * size->num[i];
		sxy += size->num[i] * lat->num[i];
		n++;
	}
	slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	ck_assert_msg(fabs(1 / slope - want) <= 0.10 * want, "media rate %.1f MB/s, model %.1f MB/s", 1 / slope / 1e3,
		      want / 1e3);
	hd_df_free(df);
}
END_TEST

/* The model's mean 4K random read time within the first span bytes, in ms. */
static double model_random_read_ms(double span)
{
	const struct hd_sim_zone *z = &model->zones[0];
	uint64_t per_cyl = (uint64_t)model->surfaces * z->spt;
	uint64_t ncyl = (uint64_t)(span / model->sector_bytes) / per_cyl;
	double e = 0;

	ck_assert_uint_lt(ncyl, z->last_cyl);
	/* Two uniform cylinders: distance 0 with probability 1/N, d with 2(N-d)/N^2. */
	for (uint64_t d = 1; d < ncyl; d++)
		e += 2.0 * (double)(ncyl - d) / ((double)ncyl * ncyl) * hd_sim_seek_ms(model, d);
	e += 1.0 / ncyl * (1.0 - 1.0 / model->surfaces) * model->head_switch_ms;
	return model->read_overhead_ms + e + hd_sim_rev_ms(model) / 2 + 8.0 / z->spt * hd_sim_rev_ms(model) +
	       512 / (model->interface_mb_s * 1e3);
}

START_TEST(test_bench_against_model)
{
	struct hd_df *df = run_probe(hd_cmd_bench, "bench", "--time", "20s", NULL);
	const struct hd_df_col *t = hd_df_col(df, "test"), *mb = hd_df_col(df, "mb_s"), *io = hd_df_col(df, "iops");
	double want_iops = 1e3 / model_random_read_ms(100 << 20), want_seq = zone_rate(&model->zones[0]) / 1e3;

	ck_assert_uint_eq(df->nrows, 2);
	ck_assert_str_eq(hd_df_str(t, 0), "seq_read");
	ck_assert_str_eq(hd_df_str(t, 1), "rand_read");
	ck_assert_msg(fabs(mb->num[0] - want_seq) <= 0.05 * want_seq, "sequential %.2f MB/s, model %.2f", mb->num[0],
		      want_seq);
	ck_assert_msg(fabs(io->num[1] - want_iops) <= 0.15 * want_iops, "random read %.1f IOPS, model %.1f",
		      io->num[1], want_iops);
	hd_df_free(df);
}
END_TEST

START_TEST(test_zone_steps)
{
	struct hd_df *df = run_probe(hd_cmd_zone, "zone", NULL);
	const struct hd_df_col *off = hd_df_col(df, "offset_bytes"), *mb = hd_df_col(df, "mb_s");
	double level[16];
	size_t nlev = 0, inside = 0;

	ck_assert_uint_eq(df->nrows, 100);
	for (size_t i = 0; i < df->nrows; i++) {
		const struct hd_sim_zone *z = zone_of_cyl(chs_of(off->num[i]).cyl);
		double want = zone_rate(z) / 1e3;

		/* A read that straddles two zones runs at a rate between theirs. */
		if (off->num[i] + (9 << 20) < (double)model->sectors * model->sector_bytes &&
		    z != zone_of_cyl(chs_of(off->num[i] + (9 << 20)).cyl))
			continue;
		/* Steps: a new level where the rate moves by more than 1.5%. */
		if (nlev == 0 || fabs(mb->num[i] - level[nlev - 1]) > 0.015 * level[nlev - 1]) {
			ck_assert_uint_lt(nlev, 16);
			level[nlev++] = mb->num[i];
		}
		/* Every read that stays inside one zone runs at that zone's rate. */
		inside++;
		ck_assert_msg(fabs(mb->num[i] - want) <= 0.03 * want, "at %.0f: %.2f MB/s, zone rate %.2f", off->num[i],
			      mb->num[i], want);
	}
	ck_assert_uint_ge(inside, 95);
	ck_assert_uint_eq(nlev, model->nzones);
	for (size_t k = 0; k < nlev; k++)
		ck_assert_msg(fabs(level[k] - zone_rate(&model->zones[k]) / 1e3) <= 0.03 * level[k], "step %zu", k);
	hd_df_free(df);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("probes");

	tcase_set_timeout(tu_case(s, "sim", setup, teardown,
				  TU_TESTS(TU_LOOP(test_plan_ignores_cache, plan_cases),
					   TU_TEST(test_response_against_model), TU_TEST(test_media_rate),
					   TU_TEST(test_bench_against_model), TU_TEST(test_zone_steps))),
			  120);
	return tu_run_suite(s);
}
