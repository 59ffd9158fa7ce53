/*
 * fit: the drive's mechanics from the data files of a profile directory.
 * Only the files are read, never a device, so a profile measured on one
 * machine can be fitted on another.  Every estimate names its method; the
 * methods are documented in hddscope(1) (FIT METHODS) and, briefly, where
 * they are computed: the revolution in fit_rev.c, the seek curve in fit_seek.c, its
 * models and datasheet figures in fit_model.c, the overhead, caches and
 * zones in fit_caches.c, the layout probe's figures (track size, switch
 * times, surfaces, zones) in fit_layout.c, the inputs in fit_inputs.c.  This file runs them
 * in order, writes seekcurve.tsv and fills the result; fit_json.c writes
 * the result out, fit_drive.c a simulated drive from it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/datafile.h"
#include "hddscope/fit.h"
#include "hddscope/fsutil.h"
#include "hddscope/util.h"

#include "fit_local.h"

/* The seek curve's estimator, in words: summary.json and seekcurve.tsv say the same. */
#define SEEK_ESTIMATOR                                                                            \
	"trimmed midrange per distance bin minus half a revolution and the overhead, made nondecreasing " \
	"with distance in each direction (weighted by samples); where the layout probe found zones, "     \
	"distances in tracks (bytes at the reference's track size) and each row at the bytes from the "   \
	"reference its tracks reach; where it found the head switch, the one-cylinder seek and the "      \
	"surfaces, rows shorter than a cylinder less a track their mean over the reference's place in "   \
	"its cylinder"

/*
 * x as a JSON number reads it back (hd_json_num's forms): null for what is
 * not finite, whole numbers in full, others to ten significant digits.
 */
static double stored(double x)
{
	char buf[48];
	double v;

	if (!isfinite(x))
		return NAN;
	if ((x == floor(x) && fabs(x) < 9007199254740992.0) || fabs(x) >= 1.797693134e308)
		return x;
	snprintf(buf, sizeof(buf), "%.10g", x);
	return hd_parse_double(buf, &v) ? x : v;
}

/* The figures of f into r, as the fit section holds them; 0 or -ENOMEM. */
static int result_of(const struct fit *f, const struct inputs *in, struct hd_fit_result *r)
{
	memset(r, 0, sizeof(*r));
	r->rpm = stored(60000.0 / f->rev);
	r->rpm_uncertainty = stored(60000.0 / (f->rev * f->rev) * f->rev_unc);
	r->rpm_method = f->rev_method;
	r->revolution_ms = stored(f->rev);
	r->revolution_uncertainty_ms = stored(f->rev_unc);
	r->revolution_points = f->rev_points;
	r->overhead_ms = stored(f->C);
	r->overhead_method = f->C_method;
	r->block_bytes = stored(f->block);
	r->cache_hit_ms = stored(f->hit_ms);
	r->shortest_seek_bytes = stored(f->shortest_d);
	r->shortest_seek_ms = stored(f->shortest_ms);
	for (int i = 0; i < HD_FIG_N; i++)
		r->fig[i] = (struct hd_fit_fig){ stored(f->fig[i].value), stored(f->fig[i].low),
						 stored(f->fig[i].high), f->fig[i].method };
	r->layout = f->layout;
	r->layout.offset_bytes = stored(f->layout.offset_bytes);
	r->layout.track_bytes = stored(f->layout.track_bytes);
	r->avg_seek_ms = stored(f->avg);
	r->full_stroke_ms = stored(f->full);
	r->capacity_bytes = stored(f->cap);
	r->seek_estimator = SEEK_ESTIMATOR;
	r->have_model = f->have_rw;
	r->model = (struct hd_fit_rw){ stored(f->rw.a), stored(f->rw.b), stored(f->rw.knee),
				       stored(f->rw.c), stored(f->rw.e), stored(f->rw.rms) };
	r->read_ahead = f->ra;
	r->read_ahead_bytes = f->ra < 0 ? NAN : stored(f->ra_bytes);
	r->read_ahead_header = fit_header_onoff(in, "read_lookahead");
	r->write_cache = f->wc;
	r->write_cache_header = fit_header_onoff(in, "write_cache");
	r->write_cache_method = f->wc_method;
	r->write_cache_read_p1_ms = stored(f->wc_median);
	r->track_bytes_outer = stored(f->trk_outer);
	r->track_bytes_inner = stored(f->trk_inner);
	if (fit_zone_steps(in->zone, r))
		return -ENOMEM;
	for (size_t i = 0; i < r->nzones; i++)
		r->zones[i] = (struct hd_fit_zone){ stored(r->zones[i].offset_bytes), stored(r->zones[i].mb_s) };
	r->zones_outer_mb_s = stored(r->zones_outer_mb_s);
	r->zones_inner_mb_s = stored(r->zones_inner_mb_s);
	r->queue_gain = stored(fit_queue_gain(in->queue));
	r->queue_at_drive = fit_queue_at_drive(in->queue, &r->queue_method);
	r->seek_reference_bytes = stored(f->ref);
	r->response_from_bytes = stored(f->resp_from);
	r->seekcurve_file = "seekcurve.tsv";
	return 0;
}

void hd_fit_result_free(struct hd_fit_result *r)
{
	free(r->zones);
	r->zones = NULL;
	r->nzones = 0;
}

/* Copy a header line from src when it has one. */
static void copy_meta(struct hd_df_writer *w, const struct hd_df *src, const char *key)
{
	const char *v = src ? hd_df_meta(src, key) : NULL;

	if (v)
		hd_dfw_meta(w, key, "%s", v);
}

static int write_seekcurve(const char *dir, const struct fit *f, const struct inputs *in, char *err, size_t errlen)
{
	char path[4096];
	struct hd_df_writer *w;
	const struct hd_df *src = in->seek ? in->seek : in->resp;
	const char *call = "";
	size_t total = 0;
	FILE *o;
	int rc;

	snprintf(path, sizeof(path), "%s/seekcurve.tsv", dir);
	rc = hd_dfw_open(&w, path, "seekcurve");
	if (rc) {
		fit_fail(err, errlen, "create %s: %s", path, hd_fs_strerror(rc));
		return -1;
	}
	copy_meta(w, src, "device");
	copy_meta(w, src, "device_kind");
	copy_meta(w, src, "model");
	copy_meta(w, src, "capacity_bytes");
	copy_meta(w, src, "sector_bytes");
	hd_dfw_meta(w, "reference_bytes", "%.0f", f->ref);
	hd_dfw_meta(w, "source", "%s%s%s%s", in->seek ? "seek (read)" : "", in->seek && in->resp ? ", " : "",
		    in->resp ? "response (read)" : "", in->qreq ? ", queue (one client)" : "");
	if (in->seek && in->resp)
		hd_dfw_meta(w, "response_from_bytes", "%.0f", f->resp_from);
	hd_dfw_meta(w, "estimator", "%s", SEEK_ESTIMATOR);
	hd_dfw_meta(w, "revolution_ms", "%.6f", f->rev);
	hd_dfw_meta(w, "overhead_ms", "%.6f", f->C);
	if (f->have_rw)
		hd_dfw_meta(w, "rw_model", "a=%.6g b=%.6g knee_bytes=%.6g c=%.6g e=%.6g rms_ms=%.4f", f->rw.a, f->rw.b,
			    f->rw.knee, f->rw.c, f->rw.e, f->rw.rms);
	for (size_t k = 0; k < f->nrows; k++)
		total += f->rows[k].n;
	hd_dfw_meta(w, "samples", "%zu", total);
	hd_dfw_meta(w, "bins", "%zu", f->nrows);
	hd_dfw_meta(w, "direction_spread_ms", "%.4f", f->tau);
	hd_dfw_columns(w, "distance_bytes seek_ms samples");
	o = hd_dfw_rows(w);
	for (size_t k = 0; k < f->nrows; k++)
		fprintf(o, "%.0f\t%.6f\t%zu\n", f->rows[k].d, f->rows[k].ms, f->rows[k].n);
	rc = hd_dfw_finish(w, 1, &call);
	if (rc) {
		fit_fail(err, errlen, "%s %s: %s", call, path, hd_fs_strerror(rc));
		return -1;
	}
	return 0;
}

static const char rev_band_method[] =
	"width of the seek samples' band in narrow distance bins (range, scaled), median over bins";

/*
 * A reads-ahead drive serves part of a read near the reference from its
 * cache (a partial hit: begun in the read-ahead's data, sent after the hit
 * overhead), and such reads lie below the overhead's band: DiskSim's
 * hp_c2490a and hp_c3323a at seed 1 came out 0.8 and 1.3 ms low, dec_rz26
 * at seeds 2 and 3 0.4.  The reads behind the reference within its
 * cylinder (fit_overhead_switch) tell the overhead on such a drive too,
 * to about 0.15 ms on a full profile; where the figure found lies below
 * theirs by more than OVH_SW_MARGIN, or three of their band's spacings
 * where that is more (a quick profile's fewer reads: up to 0.28 ms apart
 * on atlas3 either way), theirs is taken.
 */
#define OVH_SW_MARGIN 0.25
static const char ovh_switch_method[] =
	"least time of the seek and response reads two tracks or more behind the reference within its cylinder "
	"(the rotational wait's expected part taken off) less the layout's head switch: the reads near the "
	"reference gave a figure below it by more than 0.25 ms or three of its spacings (reads the cache served "
	"in part)";

static void overhead_check(struct fit *f, const struct inputs *in)
{
	double c, sp;

	if (fit_overhead_switch(f, in, &c, &sp) || !(f->C < c - fmax(OVH_SW_MARGIN, 3 * sp)))
		return;
	f->C = c;
	f->C_media = 0;
	f->C_method = ovh_switch_method;
}

/* The whole fit into f; 0 or -1 with err. */
static int fit_all(struct fit *f, const struct inputs *in, char *err, size_t errlen)
{
	const struct hd_df *any = in->seek ? in->seek : in->resp;
	const char *v;

	memset(f, 0, sizeof(*f));
	for (int i = 0; i < HD_FIG_N; i++)
		f->fig[i] = hd_fit_fig_none();
	if (!any) {
		fit_fail(err, errlen, "no seek or response data file: nothing to fit a seek curve to");
		return -1;
	}
	v = hd_df_meta(any, "capacity_bytes");
	f->cap = v ? atof(v) : 0;
	if (!(f->cap > 0)) {
		fit_fail(err, errlen, "%s: no capacity_bytes header", any->path);
		return -1;
	}
	f->block = fit_param_num(in->resp ? in->resp : any, "block", 4096);
	v = in->seek ? hd_df_meta(in->seek, "reference_bytes") : NULL;
	f->ref = v ? atof(v) : f->cap / 2;
	f->hit_ms = fit_hit_p50(any);
	if (in->interval && fit_rev_from_interval(in->interval, &f->rev, &f->rev_unc, &f->rev_points) == 0) {
		f->rev_method = "write-interval sawtooth: period aligning latency + idle time";
	} else if (in->interval_read &&
		   fit_rev_from_interval(in->interval_read, &f->rev, &f->rev_unc, &f->rev_points) == 0) {
		f->rev_method = "read-interval sawtooth (the block before the last read, after an idle time): period "
				"aligning latency + idle time";
	} else if (in->resp && fit_rev_from_response(in->resp, f->block, &f->rev, &f->rev_unc, &f->rev_points) == 0) {
		double rev, unc;
		size_t pts;

		f->rev_method = "response at tiny distances: per-distance medians, line in signed distance, "
				"intercept at zero";
		/*
		 * A revolution under a millisecond is no rotation: reads near the
		 * previous one were served whole by read-ahead or a large physical
		 * sector (how many were is luck of the offsets), and the seek band
		 * is the next witness.  Where it shows none either (an SSD), the
		 * estimate stands and the check below says so.
		 */
		if (f->rev < 1.0 && in->seek && fit_rev_from_seek_spread(in->seek, &rev, &unc, &pts) == 0 &&
		    rev >= 1.0) {
			f->rev = rev;
			f->rev_unc = unc;
			f->rev_points = pts;
			f->rev_method = rev_band_method;
		}
	} else if (in->seek && fit_rev_from_seek_spread(in->seek, &f->rev, &f->rev_unc, &f->rev_points) == 0) {
		f->rev_method = rev_band_method;
	} else {
		fit_fail(err, errlen, "no data to measure the revolution from (response reads at distances up to "
				  "two blocks, a write-interval sawtooth, or seek reads)");
		return -1;
	}
	/*
	 * Spinning disks turn between 3600 and 15000 rpm, a few hundred to
	 * many thousand either way at most: anything else found here is no
	 * rotation at all (an SSD, RAM, a file the page cache serves), and a
	 * seek curve with a revolution removed would be nonsense.
	 */
	if (!(f->rev >= 1.0 && f->rev <= 100.0) || !(f->rev_unc < 0.1 * f->rev)) {
		fit_fail(err, errlen, "no rotation found: the revolution came out at %.4f +- %.4f ms (%.0f rpm); this "
				  "device does not behave like a spinning disk, so no seek curve is fitted",
		     f->rev, f->rev_unc, f->rev > 0 ? 60000 / f->rev : 0.0);
		return -1;
	}
	/* Read-ahead first: without it, a read that did not wait is labelled a hit yet is the overhead's witness. */
	fit_read_ahead(f, in);
	fit_track_bytes(f, in);
	/* The layout's zones before the overhead: a block's media time changes with them. */
	fit_layout(f, in);
	if (fit_overhead_join(f, in) == 0) {
		/* The reads that joined the read-ahead told it. */
	} else if (in->resp && fit_overhead_from_response(f, in) == 0) {
		f->C_method = f->C_media > 0 ? "least response read time beyond two blocks (no positioning, no wait), "
					       "at the seek reference: each read less its fitted share of its block's "
					       "media time beyond the reference's (the layout's zones), and each seek "
					       "sample likewise at its target"
					     : "least response read time beyond two blocks (no positioning, no wait)";
	} else if (isfinite(f->hit_ms)) {
		f->C = f->hit_ms;
		f->C_method = "calibration cache-hit time (no response data)";
	} else {
		f->C = 0;
		f->C_method = "none (no response data or calibration): seek times include it";
	}
	overhead_check(f, in);
	if (fit_seek_curve(f, in, err, errlen))
		return -1;
	fit_datasheet(f);
	fit_write_cache(f, in);
	hd_fit_cache_figs(in->cache, f->fig);
	/* Where nothing else told, the cache probe's figures say whether there is a cache at all. */
	if (f->ra < 0 && isfinite(f->fig[HD_FIG_READAHEAD_BYTES].value))
		f->ra = f->fig[HD_FIG_READAHEAD_BYTES].value > 0;
	if (f->wc < 0 && isfinite(f->fig[HD_FIG_WRITE_CACHE_BYTES].value)) {
		f->wc = f->fig[HD_FIG_WRITE_CACHE_BYTES].value > 0;
		f->wc_method = "the cache probe's write-cache figure (0: writes through)";
	}
	return 0;
}

static void free_fit(struct fit *f)
{
	free(f->rows);
	free(f->pool);
	free(f->far);
}

int hd_fit_dir(const char *dir, struct hd_fit_result *out, char *err, size_t errlen)
{
	struct inputs in;
	struct fit f;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (fit_load_inputs(dir, &in, err, errlen))
		goto done;
	if (fit_all(&f, &in, err, errlen))
		goto fitted;
	if (write_seekcurve(dir, &f, &in, err, errlen))
		goto fitted;
	if (result_of(&f, &in, out)) {
		fit_fail(err, errlen, "out of memory");
		hd_fit_result_free(out);
		goto fitted;
	}
	rc = 0;
fitted:
	free_fit(&f);
done:
	fit_free_inputs(&in);
	return rc;
}
