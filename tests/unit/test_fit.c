/*
 * fit against known truth: presets are profiled in-process (default
 * sizes), fitted, and every figure is checked against numbers computed
 * here from the model file: the seek curve bin by bin (the model's
 * positioning time, byte distances mapped to cylinders through its zones),
 * rpm, average and full-stroke seek, read-ahead and write cache on variants
 * with each switched on and off, and a drive written by --drive-out,
 * profiled again.  Only this test looks inside the model.
 */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/cmd.h"
#include "hddscope/datafile.h"
#include "hddscope/fit.h"
#include "hddscope/json.h"
#include "hddscope/preset.h"
#include "hddscope/sim.h"
#include "hddscope/sim_import.h"
#include "hddscope/stats.h"
#include "hddscope/util.h"
#include "testutil.h"

/* Profile target into dir/name (quietly, no charts) with extra options; returns the directory. */
static const char *profile(const char *name, const char *target, const char *seed, int write)
{
	static char out[300];

	snprintf(out, sizeof(out), "%s", tu_path(name));
	ck_assert_int_eq(tu_runv(hd_cmd_profile, "profile", "-q", "--no-charts", "--seed", seed, "-o", out,
				 write ? "--write" : target, write ? target : NULL, NULL), 0);
	return out;
}

/*
 * A preset's model text (or a model file's, where preset is a path) with
 * the keys of extra replaced (or added); written to dir/name.drive.
 */
static const char *variant(const char *preset, const char *name, const char *extra)
{
	static char spec[320];
	const struct hd_preset *p = strchr(preset, '/') ? NULL : hd_preset_find(preset);
	char path[300], *file = p ? NULL : tu_slurp(preset);
	const char *s;
	FILE *f;

	ck_assert(p || file);
	snprintf(path, sizeof(path), "%s/%s.drive", tu_dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	for (s = p ? p->text : file; *s;) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) + 1 : strlen(s), kl = strcspn(s, " =\n");
		char key[64];
		int drop = 0;

		snprintf(key, sizeof(key), "\n%.*s =", (int)(kl < 60 ? kl : 60), s);
		/* A line whose key extra sets again is left out (duplicate keys are errors). */
		if (kl && s[0] != '#' && (strstr(extra, key + 1) == extra || strstr(extra, key)))
			drop = 1;
		if (!drop)
			fwrite(s, 1, len, f);
		s += len;
	}
	fputs(extra, f);
	fclose(f);
	free(file);
	snprintf(spec, sizeof(spec), "sim:%s", path);
	return spec;
}

static struct hd_sim_model *load_model(const char *spec)
{
	struct hd_sim_model *m;
	char err[512];

	ck_assert_msg(hd_sim_model_load(spec, &m, err, sizeof(err)) == 0, "%s", err);
	return m;
}

static struct hd_sim_chs chs_of(const struct hd_sim_model *m, double byte)
{
	struct hd_sim_chs c;

	ck_assert_int_eq(hd_sim_lba_to_chs(m, (uint64_t)byte / m->sector_bytes, &c), 0);
	return c;
}

/* The model's positioning between two byte offsets: seek, head switch or nothing. */
static double positioning(const struct hd_sim_model *m, double from, double to)
{
	struct hd_sim_chs a = chs_of(m, from), b = chs_of(m, to);

	if (a.cyl != b.cyl)
		return hd_sim_seek_ms(m, a.cyl > b.cyl ? a.cyl - b.cyl : b.cyl - a.cyl);
	return a.surface != b.surface ? m->head_switch_ms : 0;
}

/*
 * The true positioning for a seek sample at distance D: from the end of a
 * 4 KiB reference read at R to R + D, averaged over the probe's jitter
 * window ref +- jitter/2.
 */
static double true_seek(const struct hd_sim_model *m, double ref, double jitter, double D)
{
	const int N = 64;
	double s = 0;

	for (int i = 0; i < N; i++) {
		double R = floor((ref - jitter / 2 + jitter * (i + 0.5) / N) / 4096) * 4096;

		s += positioning(m, R + 4096 - m->sector_bytes, R + D);
	}
	return s / N;
}

/* Average seek as the fit defines it: between two uniformly random byte offsets. */
static double true_avg(const struct hd_sim_model *m)
{
	struct hd_rng r;
	double cap = (double)m->sectors * m->sector_bytes, s = 0;
	const int N = 200000;

	hd_rng_seed(&r, 42);
	for (int i = 0; i < N; i++)
		s += positioning(m, hd_rng_uniform(&r) * cap, hd_rng_uniform(&r) * cap);
	return s / N;
}

static struct hd_fit_result fit_of(const char *d)
{
	struct hd_fit_result fit;
	char err[1024];

	ck_assert_msg(hd_fit_dir(d, &fit, err, sizeof(err)) == 0, "%s", err);
	return fit;
}

static struct hd_df *curve_of(const char *d)
{
	char path[400], err[512];
	struct hd_df *df;

	snprintf(path, sizeof(path), "%s/seekcurve.tsv", d);
	ck_assert_msg(hd_df_read(path, &df, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(hd_df_meta(df, "test"), "seekcurve");
	ck_assert_ptr_nonnull(hd_df_meta(df, "reference_bytes"));
	return df;
}

static double rel(double got, double want)
{
	return fabs(got - want) / want;
}

/*
 * READ_AHEAD_HIDES_OVERHEAD.  The fit takes the controller overhead of a
 * media read from the response reads near the reference.  On a drive that
 * reads ahead while the host waits (the random phase delay), those ahead
 * of the reference join the read-ahead (no media time) and those behind
 * it mostly wait for the head to come back from the next track, and every
 * fitted seek carried the error, 0.1 to 0.45 ms.  Where the cache probe's
 * reads at once past a read show the join (four or more alike at the least
 * time), the fit now takes that time plus the block's media time less its
 * transfer (fit_overhead_join): the six presets run as they are, read-ahead
 * and partial hits on (seeds 1 to 3: 58 to 60 of 60 bins within max(0.2
 * ms, 3%)).  atlas3 and cheetah9lp, whose interface is slower than their
 * media, show no join, and their response reads' band comes within 0.05
 * ms of the seek reads' floor.  DiskSim's read-ahead with partial hits on
 * the four models below shows no join either (a read that begins in the
 * data of the read before it sends that part at once, after the hit
 * overhead) and takes their overhead 0.1 to 1.3 ms off: test_disksim_models
 * runs them without.  Where the figure found lies well below what the
 * reads behind the reference within its cylinder give (fit_overhead_switch,
 * less the layout's head switch), theirs is taken:
 * test_disksim_as_imported runs them as imported.
 */
/*
 * Profile and fit a preset (with the keys of extra replaced, when not NULL);
 * check the curve and the figures against its model.
 */
static void check_preset(const char *preset, const char *extra, int strict_pct, int min_pct, double full_tol)
{
	char spec[400];
	const char *d;
	struct hd_sim_model *m;
	struct hd_fit_result fit;
	struct hd_df *df, *seek;
	const struct hd_df_col *dist, *ms;
	double ref, jit, errs[256], rpm, avg, full, want_avg, want_full;
	size_t n = 0, ok = 0, strict = 0;
	char path[400], e[512], label[200];

	/* variant() gives "sim:" and the path of the model it wrote; a path names its profile by its file name. */
	if (strrchr(preset, '/'))
		snprintf(label, sizeof(label), "%s-variant", strrchr(preset, '/') + 1);
	else
		snprintf(label, sizeof(label), "%s", preset);
	snprintf(spec, sizeof(spec), "%s%s", extra ? "" : "sim:", extra ? variant(preset, label, extra) : preset);
	if (strrchr(preset, '/')) {
		snprintf(label, sizeof(label), "%s-profile", strrchr(preset, '/') + 1);
		preset = label;
	}
	d = profile(preset, spec, getenv("FIT_SEED") ? getenv("FIT_SEED") : "1", 0);
	m = load_model(spec + 4);
	fit = fit_of(d);
	df = curve_of(d);
	snprintf(path, sizeof(path), "%s/seek-read.tsv", d);
	ck_assert_msg(hd_df_read(path, &seek, e, sizeof(e)) == 0, "%s", e);
	ref = atof(hd_df_meta(seek, "reference_bytes"));
	jit = atof(hd_df_meta(seek, "reference_jitter_bytes"));
	ck_assert_double_eq(atof(hd_df_meta(df, "reference_bytes")), ref);
	dist = hd_df_col(df, "distance_bytes");
	ms = hd_df_col(df, "seek_ms");
	/*
	 * The rows shorter than a cylinder less a track, from 256 KiB: from the
	 * layout's head switch and one-cylinder seek (layout_rows in fit_seek.c),
	 * the mean over the jitter, within max(0.2 ms, 3%) of it, every one.
	 */
	{
		const struct hd_sim_zone *z = hd_sim_zone_of_lba(m, (uint64_t)ref / m->sector_bytes);
		double trk = (double)z->spt * m->sector_bytes, cyl = (m->surfaces - 1) * trk;
		size_t nshort = 0, okshort = 0;

		for (size_t i = 0; i < df->nrows; i++) {
			double D = dist->num[i], want;

			if (fabs(D) < 256 << 10 || fabs(D) >= cyl)
				continue;
			want = true_seek(m, ref, jit, D);
			nshort++;
			okshort += fabs(ms->num[i] - want) <= fmax(0.2, 0.03 * want);
			if (getenv("FIT_VERBOSE"))
				fprintf(stderr, "%s %14.0f fit %7.3f model %7.3f (within a cylinder)\n", preset, D, ms->num[i],
					want);
		}
		ck_assert_msg(okshort == nshort, "%s: %zu of %zu rows shorter than a cylinder within max(0.2 ms, 3%%)",
			      preset, okshort, nshort);
	}
	for (size_t i = 0; i < df->nrows; i++) {
		double D = dist->num[i], want, tol;

		if (fabs(D) < 1e6 || fabs(D) > 1e9 || ref + D < 0 || ref + D >= (double)m->sectors * m->sector_bytes)
			continue;
		want = true_seek(m, ref, jit, D);
		tol = fmax(0.3, 0.05 * want);
		ck_assert_uint_lt(n, 256);
		errs[n++] = fabs(ms->num[i] - want);
		ok += fabs(ms->num[i] - want) <= tol;
		/* Issue 14's tolerance. */
		strict += fabs(ms->num[i] - want) <= fmax(0.2, 0.03 * want);
		if (getenv("FIT_VERBOSE"))
			fprintf(stderr, "%s %14.0f fit %7.3f model %7.3f %s\n", preset, D, ms->num[i], want,
				fabs(ms->num[i] - want) <= tol ? "" : "OUT");
	}
	rpm = fit.rpm;
	avg = fit.avg_seek_ms;
	full = fit.full_stroke_ms;
	want_avg = true_avg(m);
	want_full = hd_sim_seek_ms(m, m->cylinders - 1);
	hd_sort_doubles(errs, n);
	fprintf(stderr,
		"%-11s bins %zu, within tolerance %zu (%.0f%%), within max(0.2 ms, 3%%) %zu, error median %.3f ms worst %.3f ms; rpm %.1f (%.3f%%), "
		"avg %.3f/%.3f (%.1f%%), full %.3f/%.3f (%.1f%%), overhead %.3f\n",
		preset, n, ok, 100.0 * (double)ok / (double)n, strict, hd_percentile_sorted(errs, n, 50), errs[n - 1], rpm,
		100 * rel(rpm, m->rpm), avg, want_avg, 100 * rel(avg, want_avg), full, want_full,
		100 * rel(full, want_full), fit.overhead_ms);
	/* 1 MB .. 1 GB is at least 9 octaves of 3 bins a side. */
	ck_assert_uint_ge(n, 40);
	ck_assert_msg(ok * 100 >= n * min_pct, "%s: %zu of %zu bins within tolerance, want %d%%", preset, ok, n, min_pct);
	ck_assert_msg(strict * 100 >= n * (size_t)strict_pct, "%s: %zu of %zu bins within max(0.2 ms, 3%%), want %d%%",
		      preset, strict, n, strict_pct);
	ck_assert_msg(rel(rpm, m->rpm) <= 0.005, "%s: rpm %.2f, model %.2f", preset, rpm, m->rpm);
	ck_assert_msg(rel(avg, want_avg) <= 0.05, "%s: average seek %.3f, model %.3f", preset, avg, want_avg);
	ck_assert_msg(rel(full, want_full) <= full_tol, "%s: full stroke %.3f, model %.3f", preset, full, want_full);
	/* The stored rpm uncertainty covers the error it claims to. */
	ck_assert_double_lt(fabs(rpm - m->rpm), 4 * fit.rpm_uncertainty + 1e-3 * m->rpm);
	hd_df_free(seek);
	hd_df_free(df);
	hd_fit_result_free(&fit);
	hd_sim_model_free(m);
}

START_TEST(test_atlas3)
{
	/* Its stream read-ahead and partial hits on: see READ_AHEAD_HIDES_OVERHEAD. */
	check_preset("atlas3", NULL, 98, 90, 0.05);
}
END_TEST

START_TEST(test_cheetah9lp)
{
	/* Its stream read-ahead and partial hits on: see READ_AHEAD_HIDES_OVERHEAD. */
	check_preset("cheetah9lp", NULL, 98, 90, 0.05);
}
END_TEST

START_TEST(test_dtla307030)
{
	/* Its read-ahead on: see READ_AHEAD_HIDES_OVERHEAD. */
	check_preset("dtla307030", NULL, 98, 90, 0.05);
}
END_TEST

START_TEST(test_st320420a)
{
	check_preset("st320420a", NULL, 98, 90, 0.05);
}
END_TEST

START_TEST(test_st2000dm001)
{
	check_preset("st2000dm001", NULL, 98, 90, 0.05);
}
END_TEST

START_TEST(test_travelstar5k320)
{
	check_preset("travelstar5k320", NULL, 98, 90, 0.05);
}
END_TEST

/* DiskSim 4.0's source, whose valid/ set holds the models of measured drives. */
static const char *disksim_tarball(void)
{
	static char path[600];
	const char *shared = getenv("HDDSCOPE_SHARED");

	snprintf(path, sizeof(path), "%s/disksim/disksim-4.0-src.tar.xz", shared ? shared : HDDSCOPE_SHARED_DIR);
	return path;
}

/*
 * A DiskSim model of valid/ imported (hddscope sim import) into
 * tu_dir/name.drive, valid/ taken from the tarball the first time.
 */
static const char *disksim_model(const char *name)
{
	static char drive[400];
	char cmd[1400], parv[400], err[512], *text;
	size_t len;
	FILE *f;

	snprintf(parv, sizeof(parv), "%s/valid/%s.parv", tu_dir, name);
	if (access(parv, R_OK) != 0) {
		snprintf(cmd, sizeof(cmd), "tar -xJf '%s' -C '%s' --wildcards 'valid/*' 2>/dev/null || "
			 "tar -xJf '%s' -C '%s' --wildcards './valid/*'", disksim_tarball(), tu_dir, disksim_tarball(),
			 tu_dir);
		ck_assert_int_eq(system(cmd), 0);
	}
	ck_assert_msg(hd_sim_import(parv, NULL, &text, &len, err, sizeof(err)) == 0, "%s", err);
	snprintf(drive, sizeof(drive), "%s/%s.drive", tu_dir, name);
	f = fopen(drive, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
	free(text);
	return drive;
}

/*
 * Four DiskSim models of measured drives, imported, without read-ahead
 * (READ_AHEAD_HIDES_OVERHEAD): the bins within max(0.3 ms, 5%) and within
 * max(0.2 ms, 3%) each must reach (the figures of today, seed 1, with a
 * few points to spare; the rest of check_preset as for a preset).  Issue
 * 14 asks 95% within max(0.2 ms, 3%) on two of them: dec_rz26 52 of 54,
 * hp_c3323a 53 of 55 (seeds 2 and 3: 54 and 51 of 54, 55 and 54 of 55);
 * hp_c2490a 56 of 61 (59 and 60 at seeds 2 and 3), hp_c2247a 46 of 55
 * (55 and 52).  What took them there: distances in tracks (the layout's
 * zones), the block's media time at each target (at_reference in fit_seek.c), each
 * bin's slope taken out of its band (detrend_bins) and 5000 seek samples.
 * What is left on hp_c2247a is the overhead: the bottom of a band of
 * response reads a revolution wide, found to about a revolution over
 * their number, of which only those on the reference's track reach it (a
 * read 22 to 103 sectors on crosses to the next on a 56 to 96 sector
 * track): 3.09 for 2.93 ms at seed 1.  On hp_c2490a, whose seek table
 * jumps 0.8 ms from four cylinders to five, the bins at 3.7 MB (four and a
 * half cylinders) average the two and miss the model's mean by 0.3 ms.
 */
START_TEST(test_disksim_models)
{
	static const struct {
		const char *name;
		int strict_pct, min_pct;
		double full_tol;
	} models[] = { { "hp_c2247a", 80, 95, 0.05 },
		       { "hp_c2490a", 90, 98, 0.05 },
		       { "dec_rz26", 95, 98, 0.05 },
		       { "hp_c3323a", 95, 98, 0.05 } };

	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		check_preset(disksim_model(models[i].name), "readahead = off\nread_partial_hits = off\n",
			     models[i].strict_pct, models[i].min_pct, models[i].full_tol);
}
END_TEST

/*
 * The same four as imported, with their own read-ahead and partial hits:
 * a read near its reference that begins in the read-ahead's data is sent
 * after the hit overhead and lies below the overhead's band.  Seed 1
 * figures within max(0.2 ms, 3%): hp_c2247a 52 of 55, hp_c2490a 57 of
 * 61, dec_rz26 37 of 54, hp_c3323a 48 of 55 (0 of 61 and 0 of 55 on
 * hp_c2490a and hp_c3323a before the overhead was held to the reads
 * behind the reference within its cylinder, fit_overhead_switch); within
 * max(0.3 ms, 5%) 54, 61, 53 and 54.  dec_rz26's overhead is 0.17 ms low
 * (2.97 for about 3.14), too little for the check to take it.  The full
 * stroke comes out up to 5.3% short (hp_c2490a; 5.2% hp_c3323a): within
 * 6% here.
 */
START_TEST(test_disksim_as_imported)
{
	static const struct {
		const char *name;
		int strict_pct, min_pct;
	} models[] = { { "hp_c2247a", 90, 95 }, { "hp_c2490a", 90, 95 }, { "dec_rz26", 65, 95 }, { "hp_c3323a", 85, 95 } };

	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s-as-imported", models[i].name);
		check_preset(variant(disksim_model(models[i].name), name, "") + 4, NULL, models[i].strict_pct,
			     models[i].min_pct, 0.06);
	}
}
END_TEST

/* Read-ahead and write cache as the timings show them, on variants with each on and off. */
static void check_caches(const char *preset, const char *extra, int ra, int wc)
{
	char name[64];
	const char *spec, *d;
	struct hd_fit_result fit;

	snprintf(name, sizeof(name), "%s-ra%d-wc%d", preset, ra, wc);
	spec = variant(preset, name, extra);
	d = profile(name, spec, "1", 1);
	fit = fit_of(d);
	ck_assert_msg(fit.read_ahead == ra, "%s: read-ahead not reported as %d", name, ra);
	ck_assert_int_eq(fit.write_cache, wc);
	/* The simulated drive's identity says the same. */
	ck_assert_ptr_nonnull(fit.write_cache_header);
	ck_assert_str_eq(fit.write_cache_header, wc ? "on" : "off");
	if (ra)
		ck_assert_double_gt(fit.read_ahead_bytes, 0);
	else
		ck_assert_double_eq(fit.read_ahead_bytes, 0);
	hd_fit_result_free(&fit);
}

START_TEST(test_caches_dtla)
{
	check_caches("dtla307030", "readahead_kb = 256\nwrite_cache = on\nwrite_cache_kb = 512\n", 1, 1);
	check_caches("dtla307030", "readahead_kb = 0\nwrite_cache = off\nwrite_cache_kb = 0\n", 0, 0);
}
END_TEST

START_TEST(test_caches_atlas3)
{
	/* The imported model's own keys: its segment read-ahead, its write segments. */
	check_caches("atlas3", "readahead = segment\nreadahead_max_blocks = 64\nwrite_cache = off\n", 1, 0);
	check_caches("atlas3", "readahead = off\nreadahead_max_blocks = 0\nwrite_cache = on\nwrite_cache_kb = 32\nwrite_segments = 64\n", 0, 1);
}
END_TEST

/* The sequential read rate (MB/s) a profile's bench measured. */
static double seq_read_of(const char *d)
{
	char path[400], e[512];
	struct hd_df *df;
	const struct hd_df_col *t, *r;
	double v = NAN;

	snprintf(path, sizeof(path), "%s/bench.tsv", d);
	ck_assert_msg(hd_df_read(path, &df, e, sizeof(e)) == 0, "%s", e);
	t = hd_df_col(df, "test");
	r = hd_df_col(df, "mb_s");
	ck_assert(t && r && t->type == HD_COL_STR && r->type == HD_COL_NUM);
	for (size_t i = 0; i < df->nrows; i++)
		if (strcmp(hd_df_str(t, i), "seq_read") == 0)
			v = r->num[i];
	hd_df_free(df);
	ck_assert(isfinite(v) && v > 0);
	return v;
}

/*
 * A drive written by --drive-out, profiled again (issue 14's round trip):
 * its sequential read rate within 3% of the original's, its fitted seek
 * curve within max(0.2 ms, 3%) of the original's on 95% of the bins both
 * have (1 MB .. 1 GB), its rpm within 0.05%.  Each bin of either curve
 * carries its own sampling noise, so the median difference and the worst
 * bin are bounded too, loosely enough that no seed decides the outcome.
 */
START_TEST(test_drive_out)
{
	/* atlas3 without its stream read-ahead and partial hits: see READ_AHEAD_HIDES_OVERHEAD. */
	const char *d = profile("orig", variant("atlas3", "atlas3-nora", "readahead = off\nread_partial_hits = off\n"),
				"1", 0);
	char orig[300], drive[320], spec[330], err[1024];
	struct hd_fit_result fit = fit_of(d);
	struct hd_df *a, *b;
	const struct hd_df_col *ad, *am, *bd, *bm;
	size_t n = 0, ok = 0;
	double errs[128], seq0 = seq_read_of(d), seq, med;
	struct hd_sim_model *m;

	snprintf(orig, sizeof(orig), "%s", d);
	snprintf(drive, sizeof(drive), "%s/fitted.drive", tu_dir);
	ck_assert_msg(hd_fit_write_drive(orig, &fit, drive, "fitted from orig", err, sizeof(err)) == 0, "%s", err);
	hd_fit_result_free(&fit);
	/* The model loads, and its name says where it came from. */
	snprintf(spec, sizeof(spec), "sim:%s", drive);
	m = load_model(drive);
	ck_assert_str_eq(m->name, "fitted from orig");
	ck_assert_double_lt(rel((double)m->sectors * m->sector_bytes, 9178112000.0), 0.01);
	hd_sim_model_free(m);
	d = profile("again", spec, "2", 0);
	fit = fit_of(d);
	a = curve_of(orig);
	b = curve_of(d);
	ad = hd_df_col(a, "distance_bytes");
	am = hd_df_col(a, "seek_ms");
	bd = hd_df_col(b, "distance_bytes");
	bm = hd_df_col(b, "seek_ms");
	for (size_t i = 0; i < a->nrows; i++) {
		size_t best = 0;

		if (fabs(ad->num[i]) < 1e6 || fabs(ad->num[i]) > 1e9)
			continue;
		/* The bin of the other curve at the nearest distance in the same direction. */
		for (size_t j = 1; j < b->nrows; j++)
			if (fabs(log(bd->num[j] / ad->num[i])) < fabs(log(bd->num[best] / ad->num[i])) ||
			    (bd->num[best] < 0) != (ad->num[i] < 0))
				best = j;
		if ((bd->num[best] < 0) != (ad->num[i] < 0) || fabs(log(bd->num[best] / ad->num[i])) > log(1.15))
			continue;
		ck_assert_uint_lt(n, sizeof(errs) / sizeof(errs[0]));
		errs[n++] = rel(bm->num[best], am->num[i]);
		ok += fabs(bm->num[best] - am->num[i]) <= fmax(0.2, 0.03 * am->num[i]);
		if (getenv("FIT_VERBOSE"))
			fprintf(stderr, "drive-out %14.0f orig %7.3f again %7.3f\n", ad->num[i], am->num[i], bm->num[best]);
	}
	seq = seq_read_of(d);
	ck_assert_uint_ge(n, 40);
	med = tu_median(errs, n);
	fprintf(stderr, "drive-out: %zu of %zu bins within max(0.2 ms, 3%%), median %.3f worst %.3f; rpm %.3f; "
			"sequential read %.3f MB/s for %.3f (%.1f%%)\n",
		ok, n, med, errs[n - 1], fit.rpm, seq, seq0, 100 * rel(seq, seq0));
	/*
	 * The model has the layout probe's surfaces, zones and skews and the
	 * measured track-to-track seek as its one-cylinder point (the curve's
	 * bin at a cylinder's bytes averages the reference's own cylinder in);
	 * its seek table is the fitted curve as it is (it once took what the
	 * fitted overhead left over the read overhead and the transfer, which
	 * the model's own profile then took off its curve: 22 of 60 bins with
	 * the interval reads in the overhead's band).  Today 60 of 60 bins,
	 * median 1.2%, worst 6.6%, and 2.3% below the original's sequential
	 * rate (3.99 for 4.08 MB/s).
	 */
	ck_assert_msg(ok * 20 >= n * 19, "%zu of %zu bins within max(0.2 ms, 3%%)", ok, n);
	ck_assert_msg(med <= 0.06, "median difference %.3f", med);
	ck_assert_double_le(errs[n - 1], 0.15);
	ck_assert_msg(rel(fit.rpm, 7200) <= 0.0005, "rpm %.3f", fit.rpm);
	ck_assert_msg(rel(seq, seq0) <= 0.03, "sequential read %.3f MB/s, original %.3f", seq, seq0);
	hd_df_free(a);
	hd_df_free(b);
	hd_fit_result_free(&fit);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fit");
	TCase *tc = tu_case(s, "presets", NULL, NULL,
			    TU_TESTS(TU_TEST(test_atlas3), TU_TEST(test_cheetah9lp), TU_TEST(test_dtla307030),
				     TU_TEST(test_st320420a), TU_TEST(test_st2000dm001), TU_TEST(test_travelstar5k320),
				     TU_TEST(test_caches_dtla), TU_TEST(test_caches_atlas3),
				     TU_TEST(test_drive_out)));

	tcase_add_unchecked_fixture(tc, tu_mkdir, tu_rmdir);
	tcase_set_timeout(tc, 120);
	/* The DiskSim models where DiskSim's source is beside the clone (../shared). */
	if (access(disksim_tarball(), R_OK) == 0) {
		TCase *ds = tu_case(s, "disksim", NULL, NULL,
				    TU_TESTS(TU_TEST(test_disksim_models), TU_TEST(test_disksim_as_imported)));

		tcase_add_unchecked_fixture(ds, tu_mkdir, tu_rmdir);
		tcase_set_timeout(ds, 240);
	} else {
		fprintf(stderr, "disksim models: skipped (no %s)\n", disksim_tarball());
	}
	return tu_run_suite(s);
}
