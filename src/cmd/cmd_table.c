/*
 * hddscope table DIR...: the bench figures of several profiles as one
 * table, one row per device with its identity, in text, Markdown or CSV.
 * The figures are read from each profile's bench.tsv and printed with the
 * precision that file holds them in, so the table says what the files say.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hddscope/cli.h"
#include "hddscope/cmd.h"
#include "hddscope/datafile.h"
#include "hddscope/msg.h"
#include "hddscope/opt.h"
#include "fleet_local.h"

enum table_format { FMT_TEXT, FMT_MD, FMT_CSV };

struct table_opts {
	int format;
};

#define O(member) offsetof(struct table_opts, member)

static const char *const format_words[] = { "text", "md", "csv", NULL };
static const int format_values[] = { FMT_TEXT, FMT_MD, FMT_CSV };

static const struct hd_option table_options[] = {
	{ .name = "format", .kind = HD_OPT_ENUM, .off = O(format), .words = format_words, .values = format_values,
	  .def = "text", .help = "text (aligned columns), md (a Markdown table) or csv" },
	HD_OPT_HELP_END,
};

static const struct hd_cmdspec table_spec = {
	.name = "table",
	.intro = "Usage: hddscope table [OPTIONS] DIR...\n"
		 "\n"
		 "Print the bench figures of one or more profiles (directories written by\n"
		 "'hddscope profile') as one table on stdout, one row per device: its model and\n"
		 "its serial (or, for a simulated drive, its spec), sequential read and write in\n"
		 "MB/s (10^6 bytes/s), 4K random read and write in IOPS, from DIR/bench.tsv.  A\n"
		 "figure the profile did not measure (writes without --write) is \"-\".\n"
		 "\n"
		 "Or the drives of burn-ins: DIR a device's directory of 'hddscope burnin' (its\n"
		 "device.json) or a whole result directory (its burnin.json: every device in it),\n"
		 "one row per drive, the worst verdict first (FAIL, WARN, PASS, none): where (the\n"
		 "directory's last two names: the result directory, e.g. the host, and the\n"
		 "device's), device, model, serial, verdict, rounds, the last round's slow-write\n"
		 "rate in % with its 95% interval, write p99 in ms and temperature, the change of\n"
		 "each SMART counter over the burn-in, and the FAIL and WARN reasons; every figure\n"
		 "as device.json holds it.  Profiles and burn-ins cannot be mixed in one table.\n"
		 "\n",
	.opts = table_options,
	.outro = "\n"
		 "Exit codes: 0 ok, 1 usage (profiles and burn-ins mixed), 2 setup (a directory\n"
		 "missing, a profile without a readable bench.tsv, a burn-in without a readable\n"
		 "device.json or burnin.json).\n",
};

/* The columns after the identity: a row of bench.tsv and the column printed. */
static const struct {
	const char *test, *col, *head, *fmt;
} figures[] = {
	{ "seq_read", "mb_s", "seq read MB/s", "%.3f" },
	{ "seq_write", "mb_s", "seq write MB/s", "%.3f" },
	{ "rand_read", "iops", "4K rand read IOPS", "%.1f" },
	{ "rand_write", "iops", "4K rand write IOPS", "%.1f" },
};

#define NFIG (sizeof(figures) / sizeof(figures[0]))
#define NCOL (NFIG + 3)

struct row {
	char cell[NCOL][192];
};

static const char *const heads[3] = { "profile", "device", "identity" };

/* The identity of a device: serial when it has one, otherwise its spec (sim:NAME) or path. */
static void identity(const struct hd_df *df, struct row *r)
{
	const char *model = hd_df_meta(df, "model"), *serial = hd_df_meta(df, "serial");
	const char *dev = hd_df_meta(df, "device"), *kind = hd_df_meta(df, "device_kind");

	snprintf(r->cell[1], sizeof(r->cell[1]), "%s", model && strcmp(model, "unknown") ? model : "unknown model");
	if (serial && strcmp(serial, "unknown") && strcmp(serial, ""))
		snprintf(r->cell[2], sizeof(r->cell[2]), "serial %s", serial);
	else
		snprintf(r->cell[2], sizeof(r->cell[2]), "%s%s", dev ? dev : "unknown device",
			 kind && strcmp(kind, "simulated drive") == 0 ? " (simulated)" : "");
}

/* One profile's row; returns the exit code. */
static int read_row(const char *dir, struct row *r)
{
	char path[4096], err[1024];
	const struct hd_df_col *test;
	struct hd_df *df;

	memset(r, 0, sizeof(*r));
	if (hd_cmd_check_dir(dir))
		return HD_EXIT_SETUP;
	snprintf(path, sizeof(path), "%s/bench.tsv", dir);
	if (hd_df_read(path, &df, err, sizeof(err))) {
		hd_err("%s (is %s a profile with a bench?)", err, dir);
		return HD_EXIT_SETUP;
	}
	test = hd_df_col(df, "test");
	if (!test || test->type != HD_COL_STR) {
		hd_err("%s: no text column 'test'", path);
		hd_df_free(df);
		return HD_EXIT_SETUP;
	}
	snprintf(r->cell[0], sizeof(r->cell[0]), "%s", dir);
	identity(df, r);
	for (size_t f = 0; f < NFIG; f++) {
		const struct hd_df_col *col = hd_df_col(df, figures[f].col);

		snprintf(r->cell[3 + f], sizeof(r->cell[3 + f]), "-");
		for (size_t i = 0; col && col->type == HD_COL_NUM && i < df->nrows; i++)
			if (strcmp(hd_df_str(test, i), figures[f].test) == 0)
				snprintf(r->cell[3 + f], sizeof(r->cell[3 + f]), figures[f].fmt, col->num[i]);
	}
	hd_df_free(df);
	return HD_EXIT_OK;
}

/*
 * What is printed: ncol columns of heads, nrow rows of cells (row i,
 * column c at cells + (i * ncol + c) * cellsz), numeric columns aligned
 * right in text and Markdown.
 */
struct grid {
	size_t ncol, nrow, cellsz;
	const char *const *head;
	const int *right;
	const char *cells;
};

static const char *cell_of(const struct grid *g, size_t i, size_t c)
{
	return g->cells + (i * g->ncol + c) * g->cellsz;
}

static void print_text(const struct grid *g)
{
	size_t w[32];

	for (size_t c = 0; c < g->ncol; c++) {
		w[c] = strlen(g->head[c]);
		for (size_t i = 0; i < g->nrow; i++)
			if (strlen(cell_of(g, i, c)) > w[c])
				w[c] = strlen(cell_of(g, i, c));
	}
	for (size_t i = 0; i <= g->nrow; i++)
		for (size_t c = 0; c < g->ncol; c++) {
			const char *s = i ? cell_of(g, i - 1, c) : g->head[c];
			int last = c + 1 == g->ncol;

			/* The last column, left-aligned, is not padded: no trailing blanks. */
			printf(g->right[c] ? "%*s%s" : "%-*s%s", last && !g->right[c] ? 0 : (int)w[c], s,
			       last ? "\n" : "  ");
		}
}

/* A Markdown cell: a '|' would end the cell. */
static void md_cell(const char *s)
{
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : (char[]){ *s, 0 }, stdout);
}

static void print_md(const struct grid *g)
{
	for (size_t c = 0; c < g->ncol; c++)
		printf("| %s ", g->head[c]);
	printf("|\n");
	for (size_t c = 0; c < g->ncol; c++)
		printf(g->right[c] ? "|---:" : "|---");
	printf("|\n");
	for (size_t i = 0; i < g->nrow; i++) {
		for (size_t c = 0; c < g->ncol; c++) {
			printf("| ");
			md_cell(cell_of(g, i, c));
			printf(" ");
		}
		printf("|\n");
	}
}

/* A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line end. */
static void csv_cell(const char *s, int last)
{
	if (strpbrk(s, ",\"\r\n")) {
		putchar('"');
		for (; *s; s++)
			fputs(*s == '"' ? "\"\"" : (char[]){ *s, 0 }, stdout);
		putchar('"');
	} else
		fputs(s, stdout);
	fputs(last ? "\r\n" : ",", stdout);
}

static void print_csv(const struct grid *g)
{
	for (size_t c = 0; c < g->ncol; c++)
		csv_cell(g->head[c], c + 1 == g->ncol);
	for (size_t i = 0; i < g->nrow; i++)
		for (size_t c = 0; c < g->ncol; c++)
			csv_cell(cell_of(g, i, c), c + 1 == g->ncol);
}

static int print_grid(const struct grid *g, int format)
{
	if (format == FMT_MD)
		print_md(g);
	else if (format == FMT_CSV)
		print_csv(g);
	else
		print_text(g);
	return fflush(stdout) == 0 ? HD_EXIT_OK : HD_EXIT_RUNTIME;
}

/* The bench figures of profiles, one row each. */
static int profile_table(char *const *dirs, size_t n, int format)
{
	static const char *head[NCOL];
	static const int right[NCOL] = { 0, 0, 0, 1, 1, 1, 1 };
	struct row rows[64];
	struct grid g = { NCOL, n, sizeof(rows[0].cell[0]), head, right, &rows[0].cell[0][0] };
	int ex;

	if (n > sizeof(rows) / sizeof(rows[0])) {
		hd_err("%zu profile directories: at most %zu fit one table", n, sizeof(rows) / sizeof(rows[0]));
		return hd_usage_hint("table");
	}
	for (size_t c = 0; c < NCOL; c++)
		head[c] = c < 3 ? heads[c] : figures[c - 3].head;
	for (size_t i = 0; i < n; i++)
		if ((ex = read_row(dirs[i], &rows[i])))
			return ex;
	return print_grid(&g, format);
}

/* The burn-in drives of device and result directories, one row each, the worst first. */
static int burnin_table(char *const *dirs, size_t n, int format)
{
	struct fl_fleet f;
	char (*cells)[FL_NCOL][FL_CELL];
	int ex = fl_load(dirs, n, &f);

	if (ex != HD_EXIT_OK)
		return ex;
	if (!(cells = calloc(f.n ? f.n : 1, sizeof(*cells)))) {
		hd_err("table of %zu drives: %s", f.n, strerror(ENOMEM));
		fl_free(&f);
		return HD_EXIT_RUNTIME;
	}
	for (size_t i = 0; i < f.n; i++)
		fl_cells(&f.d[i], cells[i]);
	{
		struct grid g = { FL_NCOL, f.n, FL_CELL, fl_head, fl_numeric, &cells[0][0][0] };

		ex = print_grid(&g, format);
	}
	free(cells);
	fl_free(&f);
	return ex;
}

int hd_cmd_table(int argc, char **argv)
{
	struct table_opts o;
	int ex = hd_opt_parse(&table_spec, &o, sizeof(o), argc, argv), family;

	if (ex != HD_OPT_GO)
		return ex;
	if (optind >= argc) {
		hd_err("no profile or burn-in directory given");
		return hd_usage_hint("table");
	}
	family = fl_family("table", argv + optind, (size_t)(argc - optind));
	if (family < 0)
		return family == -HD_EXIT_USAGE ? hd_usage_hint("table") : -family;
	if (family)
		return burnin_table(argv + optind, (size_t)(argc - optind), o.format);
	return profile_table(argv + optind, (size_t)(argc - optind), o.format);
}
