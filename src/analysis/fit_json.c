/*
 * The fit written out: the fit section as JSON (fit --json and
 * summary.json's "fit"), produced from struct hd_fit_result where it is
 * written, and summary.json updated with it, its other sections kept.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/fit.h"
#include "hddscope/fsutil.h"
#include "hddscope/json.h"

const char *const hd_fit_fig_name[HD_FIG_N] = {
	[HD_FIG_TRACK_TO_TRACK] = "track_to_track_ms",
	[HD_FIG_HEAD_SWITCH] = "head_switch_ms",
	[HD_FIG_WRITE_SETTLE] = "write_settle_ms",
	[HD_FIG_READ_OVERHEAD] = "read_overhead_ms",
	[HD_FIG_WRITE_OVERHEAD] = "write_overhead_ms",
	[HD_FIG_CACHE_SEGMENTS] = "cache_segments",
	[HD_FIG_CACHE_SEGMENT_BYTES] = "cache_segment_bytes",
	[HD_FIG_READAHEAD_BYTES] = "readahead_bytes",
	[HD_FIG_WRITE_CACHE_BYTES] = "write_cache_bytes",
	[HD_FIG_ZONE_COUNT] = "zone_count",
	[HD_FIG_SURFACES] = "surfaces",
};

struct hd_fit_fig hd_fit_fig_none(void)
{
	return (struct hd_fit_fig){ NAN, NAN, NAN, NULL };
}

static void fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* A detection as a string: null when not measured. */
static void put_onoff(struct hd_json *j, const char *key, int got)
{
	if (got < 0)
		hd_json_null(j, key);
	else
		hd_json_str(j, key, got ? "on" : "off");
}

/* Does the detection agree with what the drive said?  null when either is missing. */
static void put_agrees(struct hd_json *j, int got, const char *header)
{
	if (got >= 0 && header)
		hd_json_bool(j, "agrees", got == (strcmp(header, "on") == 0));
	else
		hd_json_null(j, "agrees");
}

static void put_caches(struct hd_json *j, const struct hd_fit_result *r)
{
	hd_json_obj(j, "read_ahead");
	if (r->read_ahead < 0) {
		hd_json_null(j, "detected");
		hd_json_null(j, "bytes");
	} else {
		hd_json_bool(j, "detected", r->read_ahead);
		hd_json_num(j, "bytes", r->read_ahead_bytes);
	}
	hd_json_str(j, "header", r->read_ahead_header);
	put_agrees(j, r->read_ahead, r->read_ahead_header);
	hd_json_end(j);
	hd_json_obj(j, "write_cache");
	put_onoff(j, "detected", r->write_cache);
	hd_json_str(j, "header", r->write_cache_header);
	put_agrees(j, r->write_cache, r->write_cache_header);
	hd_json_str(j, "method", r->write_cache_method);
	hd_json_num(j, "read_p1_ms", r->write_cache_read_p1_ms);
	hd_json_end(j);
}

static void put_layout(struct hd_json *j, const struct hd_fit_layout *ly)
{
	if (!isfinite(ly->track_bytes) && !ly->nzones) {
		hd_json_null(j, "layout");
		return;
	}
	hd_json_obj(j, "layout");
	hd_json_num(j, "offset_bytes", ly->offset_bytes);
	hd_json_num(j, "track_bytes", ly->track_bytes);
	hd_json_num(j, "track_skew_sectors", ly->track_skew);
	hd_json_num(j, "cylinder_skew_sectors", ly->cylinder_skew);
	hd_json_arr(j, "zones");
	for (size_t i = 0; i < ly->nzones; i++) {
		hd_json_obj(j, NULL);
		hd_json_num(j, "offset_bytes", ly->zones[i].offset_bytes);
		hd_json_num(j, "track_bytes", ly->zones[i].track_bytes);
		hd_json_end(j);
	}
	hd_json_end(j);
	hd_json_end(j);
}

static void put_zones(struct hd_json *j, const struct hd_fit_result *r)
{
	if (!r->have_zones) {
		hd_json_null(j, "zones");
		return;
	}
	hd_json_obj(j, "zones");
	hd_json_arr(j, "steps");
	for (size_t i = 0; i < r->nzones; i++) {
		hd_json_obj(j, NULL);
		hd_json_num(j, "offset_bytes", r->zones[i].offset_bytes);
		hd_json_num(j, "mb_s", r->zones[i].mb_s);
		hd_json_end(j);
	}
	hd_json_end(j);
	hd_json_num(j, "outer_mb_s", r->zones_outer_mb_s);
	hd_json_num(j, "inner_mb_s", r->zones_inner_mb_s);
	hd_json_end(j);
}

void hd_fit_json(struct hd_json *j, const char *key, const struct hd_fit_result *r)
{
	hd_json_obj(j, key);
	hd_json_num(j, "rpm", r->rpm);
	hd_json_num(j, "rpm_uncertainty", r->rpm_uncertainty);
	hd_json_str(j, "rpm_method", r->rpm_method);
	hd_json_num(j, "revolution_ms", r->revolution_ms);
	hd_json_num(j, "revolution_uncertainty_ms", r->revolution_uncertainty_ms);
	hd_json_uint(j, "revolution_points", r->revolution_points);
	hd_json_num(j, "overhead_ms", r->overhead_ms);
	hd_json_str(j, "overhead_method", r->overhead_method);
	hd_json_num(j, "block_bytes", r->block_bytes);
	hd_json_num(j, "cache_hit_ms", r->cache_hit_ms);
	hd_json_num(j, "shortest_seek_bytes", r->shortest_seek_bytes);
	hd_json_num(j, "shortest_seek_ms", r->shortest_seek_ms);
	hd_json_num(j, "avg_seek_ms", r->avg_seek_ms);
	hd_json_num(j, "full_stroke_ms", r->full_stroke_ms);
	hd_json_num(j, "capacity_bytes", r->capacity_bytes);
	hd_json_str(j, "seek_estimator", r->seek_estimator);
	for (int i = 0; i < HD_FIG_N; i++) {
		hd_json_obj(j, hd_fit_fig_name[i]);
		hd_json_num(j, "value", r->fig[i].value);
		hd_json_num(j, "low", r->fig[i].low);
		hd_json_num(j, "high", r->fig[i].high);
		hd_json_str(j, "method", r->fig[i].method);
		hd_json_end(j);
	}
	hd_json_obj(j, "model");
	if (r->have_model) {
		hd_json_num(j, "a", r->model.a);
		hd_json_num(j, "b", r->model.b);
		hd_json_num(j, "knee_bytes", r->model.knee);
		hd_json_num(j, "c", r->model.c);
		hd_json_num(j, "e", r->model.e);
		hd_json_num(j, "rms_ms", r->model.rms);
	}
	hd_json_end(j);
	put_caches(j, r);
	hd_json_obj(j, "track_bytes");
	hd_json_num(j, "outer", r->track_bytes_outer);
	hd_json_num(j, "inner", r->track_bytes_inner);
	hd_json_end(j);
	put_zones(j, r);
	put_layout(j, &r->layout);
	hd_json_num(j, "queue_gain", r->queue_gain);
	hd_json_bool(j, "queue_gain_at_drive", r->queue_at_drive);
	hd_json_str(j, "queue_gain_method", r->queue_method);
	hd_json_num(j, "seek_reference_bytes", r->seek_reference_bytes);
	hd_json_num(j, "response_from_bytes", r->response_from_bytes);
	hd_json_str(j, "seekcurve_file", r->seekcurve_file);
	hd_json_end(j);
}

/* dir/summary.json as a JSON object in *doc, an empty one when there is none; -1 with err. */
static int load_summary(const char *dir, struct hd_jv **doc, char *err, size_t errlen)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	*doc = NULL;
	if (access(path, F_OK) != 0) {
		*doc = hd_jv_new(HD_JV_OBJ);
		if (*doc)
			return 0;
		fail(err, errlen, "out of memory");
		return -1;
	}
	if (hd_jv_load(path, doc, err, errlen))
		return -1;
	if ((*doc)->type != HD_JV_OBJ) {
		hd_jv_free(*doc);
		*doc = NULL;
		fail(err, errlen, "%s: not a JSON object", path);
		return -1;
	}
	return 0;
}

int hd_fit_check_summary(const char *dir, char *err, size_t errlen)
{
	struct hd_jv *doc;

	if (load_summary(dir, &doc, err, errlen))
		return -1;
	hd_jv_free(doc);
	return 0;
}

/* The summary doc with its (first) "fit" member, or a new last one, written from r. */
static void put_summary(struct hd_json *j, const struct hd_jv *doc, const struct hd_fit_result *r)
{
	int put = 0;

	hd_json_obj(j, NULL);
	for (size_t i = 0; i < doc->n; i++) {
		if (!put && strcmp(doc->keys[i], "fit") == 0) {
			hd_fit_json(j, "fit", r);
			put = 1;
		} else {
			hd_jv_emit(j, doc->keys[i], doc->items[i]);
		}
	}
	if (!put)
		hd_fit_json(j, "fit", r);
	hd_json_end(j);
}

int hd_fit_store_summary(const char *dir, const struct hd_fit_result *r, char *err, size_t errlen)
{
	char path[4096], *tmp;
	struct hd_jv *doc = NULL;
	struct hd_json j;
	const char *call;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	if (load_summary(dir, &doc, err, errlen))
		return -1;
	rc = hd_out_fopen(path, &f, &tmp);
	if (!rc) {
		hd_json_init(&j, f, 1);
		put_summary(&j, doc, r);
		rc = hd_out_fclose(f, tmp, path, &call);
	}
	hd_jv_free(doc);
	if (rc) {
		fail(err, errlen, "write %s: %s", path, hd_fs_strerror(rc));
		return -1;
	}
	return 0;
}

int hd_fit_update_summary(const char *dir, char *err, size_t errlen)
{
	struct hd_fit_result fit;
	int rc;

	/* A summary.json that cannot take the result is found before seekcurve.tsv is written. */
	if (hd_fit_check_summary(dir, err, errlen) || hd_fit_dir(dir, &fit, err, errlen))
		return -1;
	rc = hd_fit_store_summary(dir, &fit, err, errlen);
	hd_fit_result_free(&fit);
	return rc;
}
