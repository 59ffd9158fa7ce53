/*
 * Fitting a drive from its data files (issue "Insight"): the seek curve
 * with rotation, transfer and overhead removed, the revolution time, the
 * overheads, datasheet seek figures, a Ruemmler-Wilkes model, read-ahead
 * and write-cache detection, zone rates, and a simulated-drive model of the
 * measured drive.  Analysis reads only data files, never a device.
 *
 * The fit section (an object) has at least these members, so that compare
 * and verdict can rely on them; a member whose evidence is missing is null:
 *   "rpm", "rpm_uncertainty", "rpm_method"            number, number, string
 *   "revolution_ms"                                   number
 *   "overhead_ms"                                     controller overhead, number
 *   "track_to_track_ms", "avg_seek_ms", "full_stroke_ms"   datasheet sense, numbers
 *   "seek_estimator"                                  string naming the method
 *   "model": {"a","b","knee_bytes","c","e","rms_ms"}   Ruemmler-Wilkes, d in bytes
 *   "read_ahead": {"detected": bool, "bytes": number}
 *   "write_cache": {"detected": "on"|"off"|null, "header": string|null, "agrees": bool|null}
 *   "zones": {"outer_mb_s", "inner_mb_s", "steps": [{"offset_bytes","mb_s"}...]}
 *   "seekcurve_file": "seekcurve.tsv"
 */
#ifndef HDDSCOPE_FIT_H
#define HDDSCOPE_FIT_H

#include <stddef.h>

#include "hddscope/json.h"

/*
 * Fit the drive from the data files in dir: write dir/seekcurve.tsv and
 * return the fit section in *fit (the caller frees it).  Returns 0, or -1
 * with a message in err (no usable data, unreadable file).
 */
int hd_fit_dir(const char *dir, struct hd_jv **fit, char *err, size_t errlen);

/*
 * hd_fit_dir, then put the section into dir/summary.json as "fit" (the
 * file is created when absent, other sections are kept).  Returns 0 or -1
 * with a message in err.
 */
int hd_fit_update_summary(const char *dir, char *err, size_t errlen);

/* hddscope fit DIR [--drive-out FILE.drive] */
int hd_cmd_fit(int argc, char **argv);

/* ---- shared by fit.c, fit_drive.c, cmd_fit.c and the tests ---- */

/* A point of the seek curve pooled over both directions: |d| in bytes, ms, samples. */
struct hd_fit_pt {
	double d, ms;
	size_t n;
	int key;
};

/* Ruemmler-Wilkes: a + b*sqrt(d) for d < knee, else c + e*d (d in bytes, ms); rms of the fit. */
struct hd_fit_rw {
	double a, b, knee, c, e, rms;
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

/*
 * Put fit (which this takes over, also on failure) into dir/summary.json
 * as "fit".  0, or -1 with a message in err.
 */
int hd_fit_store_summary(const char *dir, struct hd_jv *fit, char *err, size_t errlen);

/*
 * Write a simulated-drive model (format 1) of the drive fitted in dir: fit
 * is its fit section, name the model's name.  0, or -1 with err.
 */
int hd_fit_write_drive(const char *dir, const struct hd_jv *fit, const char *path, const char *name,
		       char *err, size_t errlen);

#endif
