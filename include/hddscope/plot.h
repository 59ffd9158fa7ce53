/* Charts: running the gnuplot script that matches a data file's test. */
#ifndef HDDSCOPE_PLOT_H
#define HDDSCOPE_PLOT_H

/* The distance axis of seek and response charts. */
enum hd_plot_axis { HD_PLOT_SYMLOG, HD_PLOT_LINEAR };

/*
 * How every chart this process draws from now on looks (hd_plot_file's
 * and hd_plot_script's): the distance axis (symlog unless set), passed to
 * the scripts as the gnuplot variable AXIS ("symlog" or "linear").
 */
void hd_plot_set_axis(enum hd_plot_axis axis);
/* --axis symlog|linear in an option table (opt.h) of a command that draws charts: an int member. */
extern const char *const hd_plot_axis_words[];
extern const int hd_plot_axis_values[];
#define HD_PLOT_AXIS_OPTION(type, member)                                                                      \
	{ .name = "axis", .kind = HD_OPT_ENUM, .off = offsetof(type, member), .words = hd_plot_axis_words,      \
	  .values = hd_plot_axis_values, .def = "symlog",                                                        \
	  .help = "distance axis of the seek and response charts: symlog,\n"                                   \
		  "sign(d) log10(1 + |d| / c), c the smallest distance; or\n"                                     \
		  "linear, in MB" }
/* Keep a seek or response chart's numbers beside it: NAME-bins.tsv, NAME-density.tsv. */
void hd_plot_set_keep_bins(int keep);

/* 1 when gnuplot is on PATH. */
int hd_plot_available(void);

/*
 * Draw data into outdir (or beside data when NULL) as NAME.ext, ext "png"
 * or "svg"; prints the chart's path when print_name.  Errors are printed;
 * returns the exit code (0, 1, 2 no script or bad file, 3 gnuplot failed).
 */
int hd_plot_file(const char *data, const char *outdir, const char *ext, int print_name);

/*
 * Run plots/NAME.gp (found where hd_plot_file finds scripts) as
 * "gnuplot -c SCRIPT ARGS..." with up to 16 arguments, args[out_arg] being
 * the chart's path.  gnuplot draws into a temporary file beside it, which
 * takes the chart's name only when it is a whole PNG or SVG, and only over
 * a regular file (fsutil's output rule).  Returns 0, -ENOENT when there is
 * no such script, -errno or fsutil's codes (-HD_EEMPTYOUT: nothing or a
 * partial chart came out), or gnuplot's exit status (> 0).  Prints nothing.
 */
int hd_plot_script(const char *name, int nargs, const char *const *args, int out_arg);

#endif
