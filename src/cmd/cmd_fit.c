/*
 * hddscope fit DIR: fit the drive from the data files of a profile
 * directory (fit.c), write DIR/seekcurve.tsv and the "fit" section of
 * DIR/summary.json, print the figures, and optionally write a simulated
 * drive model of the measured drive (fit_drive.c).
 */
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/cmd.h"
#include "hddscope/fit.h"
#include "hddscope/fsutil.h"
#include "hddscope/json.h"
#include "hddscope/opt.h"

/* What the command line asks for. */
struct fit_opts {
	const char *drive;	/* --drive-out FILE */
	int json, quiet;
};

static const struct hd_option fit_options[] = {
	{ .name = "drive-out", .kind = HD_OPT_FILE, .arg = "FILE", .off = offsetof(struct fit_opts, drive),
	  .help = "also write a simulated-drive model (format 1) of the\n"
		  "fitted drive, to run as sim:FILE" },
	{ .name = "json", .kind = HD_OPT_FLAG, .off = offsetof(struct fit_opts, json),
	  .help = "print the fit section as JSON instead of the summary" },
	{ .name = "quiet", .letter = 'q', .kind = HD_OPT_FLAG, .off = offsetof(struct fit_opts, quiet),
	  .help = "print nothing but errors" },
	HD_OPT_HELP_END,
};

static const struct hd_cmdspec fit_spec = {
	.name = "fit",
	.intro = "Usage: hddscope fit [OPTIONS] DIR\n"
		 "\n"
		 "Fit the drive from the data files in DIR (a profile directory, or any\n"
		 "directory of hddscope data files): the seek curve with rotation, transfer\n"
		 "and overhead removed (DIR/seekcurve.tsv), the revolution time and rpm, the\n"
		 "controller overhead, track-to-track, average and full-stroke seek, a\n"
		 "Ruemmler-Wilkes model of the curve, read-ahead, write cache and zone rates.\n"
		 "The figures go into DIR/summary.json as \"fit\" (the file is created when\n"
		 "absent; its other sections are kept).  Only the files are read, never a\n"
		 "device.\n"
		 "\n",
	.opts = fit_options,
	.outro = "\n"
		 "Exit codes: 0 ok, 1 usage, 2 nothing to fit (no usable data, unreadable\n"
		 "file, corrupt summary.json), 3 an output could not be written.\n",
};

static void put_ms(const char *label, double v)
{
	if (isfinite(v))
		printf("%-22s %.3f ms\n", label, v);
	else
		printf("%-22s not measured\n", label);
}

/* An extracted figure: value, 95% interval and method, or "not measured". */
static void put_fig(const struct hd_fit_result *fit, enum hd_fit_fig_id id, const char *label, const char *unit)
{
	const struct hd_fit_fig *g = &fit->fig[id];

	if (!isfinite(g->value)) {
		printf("%-22s not measured\n", label);
		return;
	}
	printf("%-22s %.4g %s", label, g->value, unit);
	if (isfinite(g->low) && isfinite(g->high))
		printf(" (95%%: %.4g to %.4g)", g->low, g->high);
	printf(" (%s)\n", g->method ? g->method : "no method");
}

/* A detection: -1 not measured, 0 off, 1 on. */
static const char *onoff(int got)
{
	return got < 0 ? "not measured" : got ? "on" : "off";
}

/* What the drive said of a cache, in parentheses, when it said anything. */
static void put_header(const char *said)
{
	if (said)
		printf(" (drive says %s)", said);
	putchar('\n');
}

static void print_fit(const char *dir, const struct hd_fit_result *fit)
{
	const struct hd_fit_rw *m = &fit->model;

	printf("fit of %s\n", dir);
	printf("%-22s %.1f +- %.1f (%s)\n", "rpm", fit->rpm, fit->rpm_uncertainty, fit->rpm_method);
	put_ms("revolution", fit->revolution_ms);
	put_ms("overhead", fit->overhead_ms);
	if (isfinite(fit->shortest_seek_ms))
		printf("%-22s %.3f ms at %.0f bytes\n", "shortest seek", fit->shortest_seek_ms, fit->shortest_seek_bytes);
	else
		printf("%-22s not measured\n", "shortest seek");
	put_fig(fit, HD_FIG_TRACK_TO_TRACK, "track-to-track seek", "ms");
	put_fig(fit, HD_FIG_HEAD_SWITCH, "head switch", "ms");
	put_fig(fit, HD_FIG_WRITE_SETTLE, "write settle", "ms");
	if (isfinite(fit->layout.track_bytes))
		printf("%-22s %.0f bytes at %.0f (skews: track %.0f, cylinder %.0f sectors)\n", "track size",
		       fit->layout.track_bytes, fit->layout.offset_bytes, fit->layout.track_skew,
		       fit->layout.cylinder_skew);
	else
		printf("%-22s not measured\n", "track size");
	put_fig(fit, HD_FIG_SURFACES, "surfaces", "");
	put_fig(fit, HD_FIG_ZONE_COUNT, "zone count", "");
	put_ms("average seek", fit->avg_seek_ms);
	put_ms("full-stroke seek", fit->full_stroke_ms);
	if (fit->have_model)
		printf("%-22s %.4g + %.4g*sqrt(d) below %.4g bytes, %.4g + %.4g*d above (rms %.3f ms)\n", "model",
		       m->a, m->b, m->knee, m->c, m->e, m->rms);
	printf("%-22s %s", "read-ahead", onoff(fit->read_ahead));
	if (fit->read_ahead_bytes > 0)
		printf(", at least %.0f bytes", fit->read_ahead_bytes);
	put_header(fit->read_ahead_header);
	printf("%-22s %s", "write cache", onoff(fit->write_cache));
	put_header(fit->write_cache_header);
	put_fig(fit, HD_FIG_READ_OVERHEAD, "read overhead", "ms");
	put_fig(fit, HD_FIG_WRITE_OVERHEAD, "write overhead", "ms");
	put_fig(fit, HD_FIG_CACHE_SEGMENTS, "cache segments", "");
	put_fig(fit, HD_FIG_CACHE_SEGMENT_BYTES, "cache segment", "bytes");
	put_fig(fit, HD_FIG_READAHEAD_BYTES, "read-ahead extent", "bytes");
	put_fig(fit, HD_FIG_WRITE_CACHE_BYTES, "write cache size", "bytes");
	if (fit->have_zones)
		printf("%-22s %.2f MB/s outer, %.2f MB/s inner, %zu steps\n", "zones", fit->zones_outer_mb_s,
		       fit->zones_inner_mb_s, fit->nzones);
	printf("%-22s %s/%s\n", "seek curve", dir, fit->seekcurve_file);
}

/* Print the fit, write the drive model when asked, and store the section in DIR/summary.json. */
static int fit_outputs(const char *dir, const struct hd_fit_result *fit, const char *drive, int json, int quiet)
{
	char err[1024], name[200];

	if (!quiet && json) {
		struct hd_json j;

		hd_json_init(&j, stdout, 1);
		hd_fit_json(&j, NULL, fit);
		putchar('\n');
	} else if (!quiet) {
		print_fit(dir, fit);
	}
	if (drive) {
		snprintf(name, sizeof(name), "fitted from %.180s", dir);
		if (hd_fit_write_drive(dir, fit, drive, name, err, sizeof(err))) {
			hd_err("%s", err);
			return HD_EXIT_RUNTIME;
		}
		if (!quiet && !json)
			printf("%-22s %s\n", "drive model", drive);
	}
	if (hd_fit_store_summary(dir, fit, err, sizeof(err))) {
		hd_err("%s", err);
		return HD_EXIT_RUNTIME;
	}
	return HD_EXIT_OK;
}

int hd_cmd_fit(int argc, char **argv)
{
	struct fit_opts o;
	const char *drive = NULL, *dir;
	int c, json = 0, quiet = 0;
	char err[1024];
	struct hd_fit_result fit;

	c = hd_opt_parse(&fit_spec, &o, sizeof(o), argc, argv);
	if (c != HD_OPT_GO)
		return c;
	drive = o.drive;
	json = o.json;
	quiet = o.quiet;
	if (argc - optind != 1) {
		hd_err(argc - optind ? "too many arguments: '%s'" : "DIR is required: the profile directory to fit%s",
		       argc - optind ? argv[optind + 1] : "");
		return hd_usage_hint("fit");
	}
	dir = argv[optind];
	/* Outputs are checked before any work: fit writes seekcurve.tsv and summary.json in DIR too. */
	if (drive && (c = hd_out_check_file(drive))) {
		hd_err("%s: %s", drive, hd_fs_strerror(c));
		return HD_EXIT_SETUP;
	}
	/* A corrupt summary.json is bad input, refused before anything is fitted or written. */
	if (hd_fit_check_summary(dir, err, sizeof(err)) || hd_fit_dir(dir, &fit, err, sizeof(err))) {
		hd_err("fit %s: %s", dir, err);
		return HD_EXIT_SETUP;
	}
	c = fit_outputs(dir, &fit, drive, json, quiet);
	hd_fit_result_free(&fit);
	return c;
}
