/*
 * Fitting a drive from its data files: the seek curve
 * with rotation, transfer and overhead removed, the revolution time, the
 * overheads, datasheet seek figures, a Ruemmler-Wilkes model, read-ahead
 * and write-cache detection, zone rates, and a simulated-drive model of the
 * measured drive.  Analysis reads only data files, never a device.
 *
 * The fit is a struct hd_fit_result; written out (summary.json's "fit",
 * fit --json) it is an object with at least these members, so that compare
 * and verdict can rely on them; a member whose evidence is missing is null:
 *   "rpm", "rpm_uncertainty", "rpm_method"            number, number, string
 *   "revolution_ms"                                   number
 *   "overhead_ms"                                     controller overhead, number
 *   "shortest_seek_bytes", "shortest_seek_ms"         the curve's first point, numbers
 *   "avg_seek_ms", "full_stroke_ms"                   datasheet sense, numbers
 *   "track_to_track_ms", "head_switch_ms", "write_settle_ms", "read_overhead_ms",
 *   "write_overhead_ms", "cache_segments", "cache_segment_bytes", "readahead_bytes",
 *   "write_cache_bytes", "zone_count", "surfaces"
 *                                                     each {"value", "low", "high", "method"}:
 *                                                     a 95% interval, all null where not measured
 *   "seek_estimator"                                  string naming the method
 *   "model": {"a","b","knee_bytes","c","e","rms_ms"}   Ruemmler-Wilkes, d in bytes
 *   "read_ahead": {"detected": bool, "bytes": number}
 *   "write_cache": {"detected": "on"|"off"|null, "header": string|null, "agrees": bool|null}
 *   "zones": {"outer_mb_s", "inner_mb_s", "steps": [{"offset_bytes","mb_s"}...]}
 *   "layout": {"offset_bytes", "track_bytes", "track_skew_sectors", "cylinder_skew_sectors",
 *              "zones": [{"offset_bytes","track_bytes"}...]}   the layout probe's, null without it
 *   "seekcurve_file": "seekcurve.tsv"
 */
#ifndef HDDSCOPE_FIT_H
#define HDDSCOPE_FIT_H

#include <stddef.h>

#include "hddscope/json.h"

/*
 * A figure of the drive's mechanics as the extraction measured it: its
 * value and 95% interval, and the method behind it.  Where nothing measured
 * it, all three numbers are NAN and method is NULL (summary.json: every
 * member null): a figure with no evidence is never a guess.
 */
struct hd_fit_fig {
	double value, low, high;
	const char *method;
};

/* The figures of the fit section by name (summary.json's "fit", each {"value","low","high","method"}). */
enum hd_fit_fig_id {
	HD_FIG_TRACK_TO_TRACK,		/* track_to_track_ms: the one-cylinder seek */
	HD_FIG_HEAD_SWITCH,		/* head_switch_ms */
	HD_FIG_WRITE_SETTLE,		/* write_settle_ms: what a write seek adds to a read seek */
	HD_FIG_READ_OVERHEAD,		/* read_overhead_ms */
	HD_FIG_WRITE_OVERHEAD,		/* write_overhead_ms */
	HD_FIG_CACHE_SEGMENTS,		/* cache_segments */
	HD_FIG_CACHE_SEGMENT_BYTES,	/* cache_segment_bytes */
	HD_FIG_READAHEAD_BYTES,		/* readahead_bytes */
	HD_FIG_WRITE_CACHE_BYTES,	/* write_cache_bytes */
	HD_FIG_ZONE_COUNT,		/* zone_count */
	HD_FIG_SURFACES,		/* surfaces */
	HD_FIG_N
};

/* summary.json's name of each figure, by enum hd_fit_fig_id. */
extern const char *const hd_fit_fig_name[HD_FIG_N];

/* A figure not measured: NAN value and interval, no method. */
struct hd_fit_fig hd_fit_fig_none(void);

/* A level of the zone curve: where it starts and its mean rate. */
struct hd_fit_zone {
	double offset_bytes, mb_s;
};

/* A zone as the layout probe found it: the lowest position measured in it and its bytes per track. */
struct hd_fit_lzone {
	double offset_bytes, track_bytes;
};

#define HD_FIT_MAX_LZONES 64

/* What the layout probe found (layout.tsv); NAN and no zones without it. */
struct hd_fit_layout {
	double offset_bytes, track_bytes;	/* the walk's place and its bytes per track (a revolution) */
	double track_skew, cylinder_skew;	/* sectors */
	struct hd_fit_lzone zones[HD_FIT_MAX_LZONES];
	size_t nzones;
};

/* Ruemmler-Wilkes: a + b*sqrt(d) for d < knee, else c + e*d (d in bytes, ms); rms of the fit. */
struct hd_fit_rw {
	double a, b, knee, c, e, rms;
};

/*
 * The fit of a drive: the members of the fit section, one field each.
 * Every number is held as summary.json stores it (to the digits a JSON
 * number carries, NAN where the section has null), so that a drive model
 * written from a fit in memory and a comparison read from the stored
 * section see the same figures.  A method is a static string or NULL.
 */
struct hd_fit_result {
	double rpm, rpm_uncertainty;
	const char *rpm_method;
	double revolution_ms, revolution_uncertainty_ms;
	size_t revolution_points;
	double overhead_ms;
	const char *overhead_method;
	double block_bytes, cache_hit_ms;
	double shortest_seek_bytes, shortest_seek_ms;	/* positioning at the shortest distance measured */
	double avg_seek_ms, full_stroke_ms;
	struct hd_fit_fig fig[HD_FIG_N];	/* the extracted figures, by enum hd_fit_fig_id */
	struct hd_fit_layout layout;
	double capacity_bytes;
	const char *seek_estimator;
	int have_model;			/* model: fitted (else the section's "model" is empty) */
	struct hd_fit_rw model;		/* knee NAN when no point lies above it */
	int read_ahead;			/* -1 not measured, 0 no, 1 yes */
	double read_ahead_bytes;
	const char *read_ahead_header;	/* what the drive said: "on", "off" or NULL */
	int write_cache;		/* -1 not measured, 0 off, 1 on */
	const char *write_cache_header;	/* "on", "off" or NULL */
	const char *write_cache_method;
	double write_cache_read_p1_ms;
	double track_bytes_outer, track_bytes_inner;	/* bytes per revolution at the ends */
	int have_zones;			/* a zone file was read: zones, outer and inner hold */
	struct hd_fit_zone *zones;
	size_t nzones;
	double zones_outer_mb_s, zones_inner_mb_s;
	double queue_gain;		/* IOPS at the deepest queue over one client's */
	int queue_at_drive;		/* 1: the gain is credited to the drive (NCQ); see queue_method */
	const char *queue_method;	/* why it is or is not */
	double seek_reference_bytes, response_from_bytes;
	const char *seekcurve_file;
};

/*
 * Fit the drive from the data files in dir: write dir/seekcurve.tsv and
 * fill *fit (hd_fit_result_free releases it).  Returns 0, or -1 with a
 * message in err (no usable data, unreadable file).
 */
int hd_fit_dir(const char *dir, struct hd_fit_result *fit, char *err, size_t errlen);
void hd_fit_result_free(struct hd_fit_result *fit);

/* Write fit as a JSON object named key (NULL at the top level or in an array). */
void hd_fit_json(struct hd_json *j, const char *key, const struct hd_fit_result *fit);

/*
 * hd_fit_dir, then put the section into dir/summary.json as "fit" (the
 * file is created when absent, other sections are kept).  Returns 0 or -1
 * with a message in err.
 */
int hd_fit_update_summary(const char *dir, char *err, size_t errlen);

/*
 * The cache probe's figures from its data file (test: cache): the slots
 * cache_segments, cache_segment_bytes, readahead_bytes, write_cache_bytes,
 * read_overhead_ms and write_overhead_ms of fig (HD_FIG_N entries), each
 * left as it is where the rows do not show it.  0, or -1 when df is not a
 * cache file.
 */
struct hd_df;
int hd_fit_cache_figs(const struct hd_df *df, struct hd_fit_fig *fig);

/* hddscope fit DIR [--drive-out FILE.drive] */
int hd_cmd_fit(int argc, char **argv);

/* ---- shared by fit.c, fit_drive.c, cmd_fit.c and the tests ---- */

/* A point of the seek curve pooled over both directions: |d| in bytes, ms, samples. */
struct hd_fit_pt {
	double d, ms;
	size_t n;
	int key;
};

/* Fit the model to n points ascending in d (weights: samples); 0, or -1 with fewer than 2 points. */
int hd_fit_rw(const struct hd_fit_pt *pt, size_t n, struct hd_fit_rw *m);
double hd_fit_rw_at(const struct hd_fit_rw *m, double d);

/*
 * Bytes per revolution of the track under a read at tiny signed distance d
 * (|d| <= 2 blocks) that waited a revolution: lat = rev * (1 + d / B).
 * NAN when the sample is not of that kind.
 */
double hd_fit_track_bytes(double d, double lat, double rev, double block);

/*
 * Can dir/summary.json take a fit section: absent, or a JSON object?  0, or
 * -1 with a message in err.  Checked before anything is fitted or written.
 */
int hd_fit_check_summary(const char *dir, char *err, size_t errlen);

/* Put fit into dir/summary.json as "fit".  0, or -1 with a message in err. */
int hd_fit_store_summary(const char *dir, const struct hd_fit_result *fit, char *err, size_t errlen);

/*
 * Write a simulated-drive model (format 1) of the drive fitted in dir: fit
 * is its fit section, name the model's name.  0, or -1 with err.
 */
int hd_fit_write_drive(const char *dir, const struct hd_fit_result *fit, const char *path, const char *name,
		       char *err, size_t errlen);

#endif
