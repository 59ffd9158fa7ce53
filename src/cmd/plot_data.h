/*
 * The numbers behind the seek and response charts (plot_data.c): per-bin
 * percentiles of the media samples, and above HD_PLOT_DENSITY_MIN rows a
 * 2-D histogram drawn as an image instead of every point; and the two
 * service-time CDFs of a replay.  Private to src/cmd/.
 */
#ifndef HDDSCOPE_PLOT_DATA_H
#define HDDSCOPE_PLOT_DATA_H

#include <stdio.h>

struct hd_df;

/* Rows above which a chart draws density rather than points. */
#define HD_PLOT_DENSITY_MIN 100000
/* Columns and rows of the density grid. */
#define HD_PLOT_GRID_X 320
#define HD_PLOT_GRID_Y 160
/* Fewer distinct distances than this: percentiles per distance, not per bin. */
#define HD_PLOT_KEYED_MAX 200
/* A bin's median needs this many media samples, its p99 HD_PLOT_P99_MIN (else neighbours are pooled). */
#define HD_PLOT_P50_MIN 5
#define HD_PLOT_P99_MIN 100

/* What the chart scripts are told about a seek or response file. */
struct hd_plot_axes {
	int linear;		/* the distance axis: 1 linear, 0 symmetric log */
	double symc;		/* symlog's linear half-width c (bytes): sign(x) log10(1 + |x| / c) */
	double xlo, xhi;	/* the distances' range (bytes) */
	double yhi;		/* the largest latency of a sample that is not an error (ms) */
	int density;		/* rows > HD_PLOT_DENSITY_MIN: a grid was written */
	int grid_cache;		/* the grid holds cache samples too (more than HD_PLOT_DENSITY_MIN of them) */
};

/* Does the file's test get these numbers (seek, response)? */
int hd_plot_data_wanted(const struct hd_df *df);

/*
 * Write the per-bin percentiles of df's media samples to bins (columns
 * x_bytes n p50 p90 p99 max lo_bytes hi_bytes op p99_lo_bytes p99_hi_bytes
 * p99_n, the first six like plots/pctl.awk's; a blank line between the
 * sides of zero and between ops; a bin holds the distances in [lo, hi),
 * or where it is one distance lo = hi = it;
 * a p99 of fewer than HD_PLOT_P99_MIN samples pools the neighbouring bins
 * on its side, p99_lo..p99_hi) and,
 * when df has more than HD_PLOT_DENSITY_MIN rows, the density grid to
 * dens (x y count, x and y in the chart's axis units, NaN for an empty
 * cell).  Fills ax.  Returns 0 or -errno (-EINVAL: a column is missing,
 * -ENOMEM); a write error shows in the streams.
 */
int hd_plot_data_write(const struct hd_df *df, int linear, FILE *bins, FILE *dens, struct hd_plot_axes *ax);

/* Is df a replay's rows (test: replay, a sim_ms column)? */
int hd_plot_cdf_wanted(const struct hd_df *df);
/*
 * Write the empirical CDFs of a replay's service times to f: index 0 the
 * simulated (sim_ms), index 1 the measured (measured_ms, when the trace had
 * them: *measured set), rows "ms fraction", fraction i/n at the i-th
 * smallest of n.  Returns 0 or -ENOMEM.
 */
int hd_plot_cdf_write(const struct hd_df *df, FILE *f, int *measured);

#endif
