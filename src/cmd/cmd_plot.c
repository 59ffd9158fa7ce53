/*
 * hddscope plot: run the gnuplot script that matches each data file's
 * "test:" header.  Scripts are looked up in $HDDSCOPE_PLOTS, beside the
 * installed binary (../share/hddscope/plots), in the install prefix and in
 * the source tree the binary was built from.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hddscope/cli.h"
#include "hddscope/cmd.h"
#include "hddscope/datafile.h"
#include "hddscope/fsutil.h"
#include "hddscope/opt.h"
#include "hddscope/plot.h"
#include "plot_data.h"

struct plot_opts {
	const char *outdir;	/* -o DIR; NULL: beside each data file */
	int svg, axis, bins;
};

const char *const hd_plot_axis_words[] = { "symlog", "linear", NULL };
const int hd_plot_axis_values[] = { HD_PLOT_SYMLOG, HD_PLOT_LINEAR };

static const struct hd_option plot_options[] = {
	{ .name = "output", .letter = 'o', .kind = HD_OPT_STRING, .arg = "DIR", .off = offsetof(struct plot_opts, outdir),
	  .shown = "beside each data file", .help = "where the charts go" },
	{ .name = "svg", .kind = HD_OPT_FLAG, .off = offsetof(struct plot_opts, svg), .help = "SVG instead of PNG" },
	HD_PLOT_AXIS_OPTION(struct plot_opts, axis),
	{ .name = "bins", .kind = HD_OPT_FLAG, .off = offsetof(struct plot_opts, bins),
	  .help = "keep the numbers a chart draws beside it: NAME-bins.tsv\n"
		  "(seek, response: per-bin median and p99 of the media\n"
		  "samples), NAME-density.tsv (above 100000 rows),\n"
		  "NAME-cdf.tsv (replay: both CDFs)" },
	HD_OPT_HELP_END,
};

/* How every chart of this process is drawn (hd_plot_set_axis, hd_plot_set_keep_bins). */
static enum hd_plot_axis plot_axis = HD_PLOT_SYMLOG;
static int plot_keep_bins;

void hd_plot_set_axis(enum hd_plot_axis axis)
{
	plot_axis = axis;
}

void hd_plot_set_keep_bins(int keep)
{
	plot_keep_bins = keep;
}

static const struct hd_cmdspec plot_spec = {
	.name = "plot",
	.intro = "Usage: hddscope plot [OPTIONS] FILE...\n"
		 "\n"
		 "Draw a chart of each data file with the gnuplot script for its test\n"
		 "(plots/TEST.gp), as OUTDIR/NAME.png (or .svg).  Seek and response charts\n"
		 "draw the per-bin median and p99 of the media samples over the scatter,\n"
		 "and above 100000 rows the density of the samples instead of every point.\n"
		 "A replay file (hddscope replay -o) gets its simulated against its measured\n"
		 "service-time CDF.  The charts of a sim: drive say \"(simulated)\".\n"
		 "\n",
	.opts = plot_options,
	.outro = "\n"
		 "Scripts are looked up in $HDDSCOPE_PLOTS, next to the installed binary and\n"
		 "in the source tree.  Needs gnuplot (Debian: apt-get install gnuplot-nox).\n"
		 "Exit codes: 0 ok, 1 usage, 2 setup (no gnuplot, no script, bad file),\n"
		 "3 gnuplot failed or the chart's numbers could not be written.\n",
};

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Find plots/<test>.gp; returns 0 and fills path, or -1. */
static int find_script(const char *test, char *path, size_t len)
{
	const char *env = getenv("HDDSCOPE_PLOTS");
	char exe[PATH_MAX], dirs[4][PATH_MAX];
	int n = 0;
	ssize_t k;

	if (env && *env)
		snprintf(dirs[n++], PATH_MAX, "%s", env);
	k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (k > 0) {
		exe[k] = '\0';
		snprintf(dirs[n++], PATH_MAX, "%s/../share/hddscope/plots", dirname(exe));
	}
	snprintf(dirs[n++], PATH_MAX, "%s", HDDSCOPE_INSTALL_PLOTS);
	snprintf(dirs[n++], PATH_MAX, "%s", HDDSCOPE_SOURCE_PLOTS);
	for (int i = 0; i < n; i++) {
		int k2 = snprintf(path, len, "%s/%s.gp", dirs[i], test);
		if (k2 > 0 && (size_t)k2 < len && is_file(path))
			return 0;
	}
	return -1;
}

/* Is prog on PATH? */
static int on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
		if (access(buf, X_OK) == 0)
			return 1;
		path += n;
		if (*path == ':')
			path++;
	}
	return 0;
}

#define MAX_SCRIPT_ARGS 16

/*
 * gnuplot [-e VARS] -c script args...: its exit status, or -errno when it
 * cannot start.  VARS (gnuplot statements, NULL for none) set the scripts'
 * variables before they run.
 */
static int run_gnuplot_argv(const char *script, int nargs, const char *const *args, const char *vars)
{
	const char *argv[MAX_SCRIPT_ARGS + 6] = { "gnuplot" };
	pid_t pid;
	int st, k = 1;

	if (nargs < 0 || nargs > MAX_SCRIPT_ARGS)
		return -E2BIG;
	if (vars) {
		argv[k++] = "-e";
		argv[k++] = vars;
	}
	argv[k++] = "-c";
	argv[k++] = script;
	for (int i = 0; i < nargs; i++)
		argv[k++] = args[i];
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execvp("gnuplot", (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * Is the file at fd a whole chart?  gnuplot exits 0 after writing nothing
 * (or half a file) to a full file system, so the file's own ending is
 * checked: a PNG's IEND chunk, an SVG's closing tag.
 */
static int chart_whole(const char *path)
{
	static const unsigned char png_sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	static const unsigned char png_end[8] = { 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82 };
	unsigned char head[8], tail[64];
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), ok = 0;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(head))
		goto out;
	n = (ssize_t)(st.st_size < (off_t)sizeof(tail) ? st.st_size : (off_t)sizeof(tail));
	if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    pread(fd, tail, (size_t)n, st.st_size - n) != n)
		goto out;
	if (memcmp(head, png_sig, sizeof(png_sig)) == 0) {
		ok = memcmp(tail + n - sizeof(png_end), png_end, sizeof(png_end)) == 0;
		goto out;
	}
	for (ssize_t i = n - 6; i >= 0 && !ok; i--)
		ok = memcmp(tail + i, "</svg>", 6) == 0;
out:
	close(fd);
	return ok;
}

/* gnuplot draws into a temporary file; a whole chart takes the name args[out_arg]. */
static int run_chart(const char *script, int nargs, const char *const *args, int out_arg, const char *vars)
{
	const char *av[MAX_SCRIPT_ARGS];
	const char *out = args[out_arg];
	char *tmp;
	int fd, rc;

	if (nargs < 0 || nargs > MAX_SCRIPT_ARGS || out_arg < 0 || out_arg >= nargs)
		return -E2BIG;
	fd = hd_out_tmp_open_ext(out, &tmp);
	if (fd < 0)
		return fd;
	memcpy(av, args, (size_t)nargs * sizeof(*av));
	av[out_arg] = tmp;
	close(fd);
	rc = run_gnuplot_argv(script, nargs, av, vars);
	if (rc == 0 && !chart_whole(tmp))
		rc = -HD_EEMPTYOUT;
	if (rc == 0)
		rc = hd_out_commit(tmp, out, 1);
	else
		unlink(tmp);
	free(tmp);
	return rc;
}

int hd_plot_script(const char *name, int nargs, const char *const *args, int out_arg)
{
	char script[PATH_MAX];

	if (find_script(name, script, sizeof(script)))
		return -ENOENT;
	return run_chart(script, nargs, args, out_arg, plot_axis == HD_PLOT_LINEAR ? "AXIS='linear'" : "AXIS='symlog'");
}

int hd_plot_available(void)
{
	return on_path("gnuplot");
}

/* Append s to buf as a gnuplot single-quoted string ('' stands for a quote). */
static void gp_quote(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	if (n + 1 < len)
		buf[n++] = '\'';
	for (; *s && n + 3 < len; s++) {
		buf[n++] = *s;
		if (*s == '\'')
			buf[n++] = '\'';
	}
	if (n + 1 < len)
		buf[n++] = '\'';
	buf[n] = '\0';
}

/* The numbers a seek or response chart draws, in files beside the chart while gnuplot runs. */
struct chart_aux {
	FILE *f[2];		/* bins, density */
	char *tmp[2];
	char path[2][PATH_MAX];
};

static void aux_drop(struct chart_aux *a)
{
	for (int i = 0; i < 2; i++)
		if (a->f[i])
			hd_out_fdrop(a->f[i], a->tmp[i]);
	memset(a, 0, sizeof(*a));
}

/* Open a's files for out: NAME-WHAT[i].tsv, the second only when want2.  Returns 0 or an exit code, printed. */
static int aux_open(struct chart_aux *a, const char *out, const char *const what[2], int want2)
{
	size_t stem = strlen(out);
	const char *dot = strrchr(out, '.');
	int rc;

	if (dot && !strchr(dot, '/'))
		stem = (size_t)(dot - out);
	for (int i = 0; i < 1 + !!want2; i++) {
		/*
		 * Kept (--bins), NAME-WHAT.tsv, under the output rule; else only a
		 * temporary file named after the chart, so that whatever lies at
		 * NAME-WHAT.tsv is not the chart's concern.
		 */
		if (plot_keep_bins)
			snprintf(a->path[i], PATH_MAX, "%.*s-%s.tsv", (int)stem, out, what[i]);
		else
			snprintf(a->path[i], PATH_MAX, "%s.%s", out, what[i]);
		if ((rc = hd_out_fopen(a->path[i], &a->f[i], &a->tmp[i]))) {
			hd_err("%s: %s", a->path[i], hd_fs_strerror(rc));
			aux_drop(a);
			return HD_EXIT_SETUP;
		}
	}
	return HD_EXIT_OK;
}

/* rc of writing a's files, their write errors counted: 0, or an exit code, printed. */
static int aux_flush(const struct hd_df *df, const char *out, struct chart_aux *a, int rc)
{
	for (int i = 0; i < 2 && !rc; i++)
		if (a->f[i] && (fflush(a->f[i]) || ferror(a->f[i])))
			rc = errno ? -errno : -EIO;
	if (rc == -EINVAL)
		hd_err("%s: distance_bytes, latency_ms, class or op of another type than a chart needs", df->path);
	else if (rc)
		hd_err("chart %s: write %s: %s", out, plot_keep_bins ? a->path[0] : "its numbers", strerror(-rc));
	if (rc) {
		aux_drop(a);
		return rc == -EINVAL ? HD_EXIT_SETUP : HD_EXIT_RUNTIME;
	}
	return HD_EXIT_OK;
}

/*
 * Write the bins (and the density grid) of a seek or response file, or a
 * replay's CDFs, beside out and the gnuplot variables that name them into
 * vars.  Returns 0 or an exit code, printed.
 */
static int aux_write(const struct hd_df *df, const char *out, struct chart_aux *a, char *vars, size_t vlen)
{
	static const char *const bins[2] = { "bins", "density" }, *const cdf[2] = { "cdf", "" };
	struct hd_plot_axes ax;
	int rc, measured;

	if (hd_plot_cdf_wanted(df)) {
		if ((rc = aux_open(a, out, cdf, 0)) ||
		    (rc = aux_flush(df, out, a, hd_plot_cdf_write(df, a->f[0], &measured))))
			return rc;
		snprintf(vars + strlen(vars), vlen - strlen(vars), "; MEASURED=%d; CDF=", measured);
		gp_quote(vars, vlen, a->tmp[0]);
		return HD_EXIT_OK;
	}
	if ((rc = aux_open(a, out, bins, df->nrows > HD_PLOT_DENSITY_MIN)) ||
	    (rc = aux_flush(df, out, a, hd_plot_data_write(df, plot_axis == HD_PLOT_LINEAR, a->f[0], a->f[1], &ax))))
		return rc;
	snprintf(vars, vlen, "AXIS='%s'; SYMC=%.17g; XLO=%.17g; XHI=%.17g; YHI=%.17g; GRIDCACHE=%d; PCTL=",
		 ax.linear ? "linear" : "symlog", ax.symc, ax.xlo, ax.xhi, ax.yhi, ax.grid_cache);
	gp_quote(vars, vlen, a->tmp[0]);
	if (ax.density) {
		strncat(vars, "; DENS=", vlen - strlen(vars) - 1);
		gp_quote(vars, vlen, a->tmp[1]);
	}
	return HD_EXIT_OK;
}

/* After gnuplot: the numbers stay beside the chart (--bins) or go. */
static int aux_finish(struct chart_aux *a)
{
	int ex = HD_EXIT_OK;

	if (!plot_keep_bins) {
		aux_drop(a);
		return ex;
	}
	for (int i = 0; i < 2; i++) {
		const char *call = "";
		int rc;

		if (!a->f[i])
			continue;
		rc = hd_out_fclose(a->f[i], a->tmp[i], a->path[i], &call);
		if (rc) {
			hd_err("%s %s: %s", call, a->path[i], hd_fs_strerror(rc));
			ex = HD_EXIT_RUNTIME;
		}
	}
	memset(a, 0, sizeof(*a));
	return ex;
}

/* OUTDIR/NAME.EXT for data (beside it when outdir is NULL): 0, or -1 when too long. */
static int chart_path(const char *data, const char *outdir, const char *ext, char *out, size_t len)
{
	char tmp[PATH_MAX], name[PATH_MAX];
	char *dot;
	int rc;

	snprintf(tmp, sizeof(tmp), "%s", data);
	snprintf(name, sizeof(name), "%s", basename(tmp));
	dot = strrchr(name, '.');
	if (dot && dot != name)
		*dot = '\0';
	snprintf(tmp, sizeof(tmp), "%s", data);
	rc = snprintf(out, len, "%s/%s.%s", outdir ? outdir : dirname(tmp), name, ext);
	return rc < 0 || (size_t)rc >= len ? -1 : 0;
}

int hd_plot_file(const char *data, const char *outdir, const char *ext, int print_name)
{
	struct hd_df *df;
	struct chart_aux aux = { 0 };
	char err[512], script[PATH_MAX], out[PATH_MAX], vars[3 * PATH_MAX + 256];
	const char *test;
	int rc;

	if (hd_df_read(data, &df, err, sizeof(err))) {
		hd_err("%s", err);
		return HD_EXIT_SETUP;
	}
	test = hd_df_meta(df, "test");
	if (find_script(test, script, sizeof(script))) {
		hd_err("%s: no chart script for test '%s' (looked for %s.gp; set HDDSCOPE_PLOTS)", data, test, test);
		hd_df_free(df);
		return HD_EXIT_SETUP;
	}
	/* A run stopped before its first sample still gets a chart that says so. */
	if (df->nrows == 0 && find_script("empty", script, sizeof(script))) {
		hd_err("%s: no rows, and no empty.gp to say so (set HDDSCOPE_PLOTS)", data);
		hd_df_free(df);
		return HD_EXIT_SETUP;
	}
	if (chart_path(data, outdir, ext, out, sizeof(out))) {
		hd_err("%s: output path too long", data);
		hd_df_free(df);
		return HD_EXIT_USAGE;
	}
	snprintf(vars, sizeof(vars), "AXIS='%s'", plot_axis == HD_PLOT_LINEAR ? "linear" : "symlog");
	if (df->nrows > 0 && (hd_plot_data_wanted(df) || hd_plot_cdf_wanted(df)) && (rc = aux_write(df, out, &aux, vars, sizeof(vars)))) {
		hd_df_free(df);
		return rc;
	}
	hd_df_free(df);
	{
		const char *args[] = { data, out };

		rc = run_chart(script, 2, args, 1, vars);
	}
	if (rc) {
		aux_drop(&aux);
		if (rc > 0)
			hd_err("gnuplot -c %s %s %s: failed (status %d)", script, data, out, rc);
		else
			hd_err("chart %s: %s", out, hd_fs_strerror(rc));
		return rc > 0 || rc == -HD_EEMPTYOUT || rc == -ENOSPC || rc == -EIO ? HD_EXIT_RUNTIME : HD_EXIT_SETUP;
	}
	if (aux_finish(&aux))
		return HD_EXIT_RUNTIME;
	if (print_name)
		printf("%s\n", out);
	return HD_EXIT_OK;
}

int hd_cmd_plot(int argc, char **argv)
{
	struct plot_opts o;
	const char *outdir = NULL, *ext = "png";
	int c, ex = HD_EXIT_OK;

	c = hd_opt_parse(&plot_spec, &o, sizeof(o), argc, argv);
	if (c != HD_OPT_GO)
		return c;
	outdir = o.outdir;
	ext = o.svg ? "svg" : "png";
	hd_plot_set_axis((enum hd_plot_axis)o.axis);
	hd_plot_set_keep_bins(o.bins);
	if (optind >= argc) {
		hd_err("no data file given");
		return hd_usage_hint("plot");
	}
	if (!on_path("gnuplot")) {
		hd_err("gnuplot not found in PATH; install it (Debian: apt-get install gnuplot-nox)");
		return HD_EXIT_SETUP;
	}
	if (outdir && (c = hd_out_make_dir(outdir))) {
		hd_err("%s: %s", outdir, hd_fs_strerror(c));
		return HD_EXIT_SETUP;
	}
	for (int i = optind; i < argc; i++) {
		int rc = hd_plot_file(argv[i], outdir, ext, 1);
		if (rc > ex)
			ex = rc;
	}
	return ex;
}
