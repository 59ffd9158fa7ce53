/*
 * The parts of the fit shared by src/analysis/fit*.c, and by nothing else:
 * the inputs, the samples, the working state of the fit, and each file's
 * entry points.
 */
#ifndef HDDSCOPE_FIT_LOCAL_H
#define HDDSCOPE_FIT_LOCAL_H

#include <stddef.h>

#include "hddscope/datafile.h"
#include "hddscope/fit.h"

#define MAX_FILES 64

/* The data files of a directory and, per test, the one the fit uses. */
struct inputs {
	struct hd_df *df[MAX_FILES];
	size_t n;
	const struct hd_df *seek, *resp, *interval, *interval_read, *zone, *queue, *qreq, *cache, *layout;
};

/*
 * A sample: signed distance and latency (ms); start is the response's
 * start_bytes; at is where the timed access went (byte offset, NAN where
 * the file does not tell).
 */
struct samp {
	double d, lat, start;
	int key;		/* the seek bin it falls in */
	double at;
};

/* A run of samples at one distance: its median latency and size. */
struct group {
	double d, med;
	size_t n;
};

/* A row of seekcurve.tsv: signed distance, positioning, samples. */
struct srow {
	double d, ms;
	size_t n;
};

/* The fit as it is computed, at full precision; fit.c turns it into a struct hd_fit_result. */
struct fit {
	double block, cap, ref;
	double rev, rev_unc;
	const char *rev_method;
	size_t rev_points;
	double C;		/* at the seek reference */
	double C_media;		/* the share in it of the block's media time, which changes with the zone */
	const char *C_method;
	struct srow *rows;	/* the signed seek curve, as seekcurve.tsv lists it */
	size_t nrows;
	double tau;		/* spread of the directions' true difference (ms) */
	double resp_from;	/* response bins from this |d| on */
	struct hd_fit_pt *pool;	/* |d| pooled over both signs */
	size_t npool;
	struct hd_fit_rw rw;
	int have_rw;
	double far_c, far_e;	/* the curve's far end, c + e * tracks, for the full stroke */
	int have_far;
	struct samp *far;	/* response and queue samples beyond half the device */
	size_t nfar;
	double shortest_d, shortest_ms;	/* the shortest pooled distance and its positioning */
	double avg, full;
	struct hd_fit_fig fig[HD_FIG_N];	/* the extracted figures; hd_fit_fig_none() where not measured */
	struct hd_fit_layout layout;	/* fit_layout.c's */
	int ra;			/* -1 unknown, 0 no, 1 yes */
	double ra_bytes;
	int wc;			/* -1 unknown, 0 off, 1 on */
	const char *wc_method;
	double wc_median;
	double trk_outer, trk_inner;	/* bytes per revolution at the ends */
	double hit_ms;
	int qdepth_hint;
};

/* fit_inputs.c: the data files, their samples and helpers over them. */
void fit_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Read every data file in dir (not our own output) and pick, per test, the file with the most usable rows. */
int fit_load_inputs(const char *dir, struct inputs *in, char *err, size_t errlen);
void fit_free_inputs(struct inputs *in);
/* The value of key=NUM in the "params" header, or def. */
double fit_param_num(const struct hd_df *df, const char *key, double def);
/* "calibration: hit_p50_ms=X media_p50_ms=Y": the hit figure, or NAN. */
double fit_hit_p50(const struct hd_df *df);
/* The samples of df with op whose class is in classes ("media cache"); NULL with *n = 0 when none. */
struct samp *fit_samples(const struct hd_df *df, const char *op, const char *classes, size_t *n);
int fit_cmp_samp_d(const void *a, const void *b);
/* Median of n values (v is reordered). */
double fit_median(double *v, size_t n);
/* Samples sorted by d, grouped by equal distance; NULL on allocation failure. */
struct group *fit_groups(const struct samp *v, size_t n, size_t *ng);

/* fit_rev.c: the revolution time, by three methods; each 0, or -1 without the evidence. */
int fit_rev_from_response(const struct hd_df *resp, double block, double *rev, double *unc, size_t *npts);
int fit_rev_from_seek_spread(const struct hd_df *seek, double *rev, double *unc, size_t *npts);
int fit_rev_from_interval(const struct hd_df *df, double *rev, double *unc, size_t *npts);

/* fit_seek.c: the seek curve. */
/* The lower edge of a band one revolution wide in latencies r[0..n) (reordered). */
double fit_band_edge(double *r, size_t n, double rev, double *spread);
/* Drop response distances whose samples all start at one place (v sorted by d). */
void fit_drop_fixed_starts(struct samp *v, size_t *n);
/* The seek curve into f (rows, pool, far samples, model); 0 or -1 with err. */
int fit_seek_curve(struct fit *f, const struct inputs *in, char *err, size_t errlen);

/* fit_model.c: track-to-track, average and full-stroke seek from the curve. */
void fit_datasheet(struct fit *f);

/* fit_layout.c: track size, skews, surfaces, switch times, write settle and zones from layout.tsv. */
void fit_layout(struct fit *f, const struct inputs *in);
/*
 * The layout's head switch, one-cylinder seek and surfaces (MTBRC): 0 where
 * all three were measured (a switch of 0 ms counts), -1 otherwise.
 */
int fit_layout_moves(const struct fit *f, double *hs, double *t2t, double *surfaces);
/* Bytes a track holds at byte offset x, from the layout's zones or the track sizes at the ends; NAN unknown. */
double fit_track_at(const struct fit *f, double x);
/* Tracks from offset 0 to x by the layout's zones, and its inverse (t < 0 extends the first zone). */
double fit_layout_tracks_to(const struct hd_fit_layout *L, double x);
double fit_layout_offset_of(const struct hd_fit_layout *L, double t);

/* fit_cachex.c: reads at once past a read that joined the read-ahead (their time, the block's transfer). */
int fit_cache_join(const struct hd_df *df, double rev, double *join_ms, double *bus_ms);

/* fit_caches.c: the overhead, caches, track sizes, zones and queue gain. */
/*
 * From the response reads near their references (f->ra, f->ref, the track
 * sizes and the layout as found before): sets f->C, f->C_media; 0, or -1.
 */
int fit_overhead_from_response(struct fit *f, const struct inputs *in);
/* One block's media time (ms) at byte offset at (fit_track_at); NAN unknown. */
double fit_media_ms(const struct fit *f, double at);
void fit_read_ahead(struct fit *f, const struct inputs *in);
void fit_write_cache(struct fit *f, const struct inputs *in);
void fit_track_bytes(struct fit *f, const struct inputs *in);
int fit_overhead_join(struct fit *f, const struct inputs *in);
/*
 * The overhead from the reads behind the reference within its cylinder,
 * less the layout's head switch, and the spacing of the cheapest of them
 * (the scale of its error): 0 or -1.
 */
int fit_overhead_switch(const struct fit *f, const struct inputs *in, double *c, double *spacing);
/* The zone levels into r (zones, outer, inner; NAN without a zone file); 0 or -ENOMEM. */
int fit_zone_steps(const struct hd_df *zone, struct hd_fit_result *r);
/* What the data files' headers say of a cache (key): "on", "off" or NULL. */
const char *fit_header_onoff(const struct inputs *in, const char *key);
/* IOPS at the deepest queue over one client's, NAN without a queue file. */
double fit_queue_gain(const struct hd_df *queue);
/* 1 where the queue file shows the gain is the drive's (no host reordering, queue_depth not 1). */
int fit_queue_at_drive(const struct hd_df *queue, const char **why);

#endif
