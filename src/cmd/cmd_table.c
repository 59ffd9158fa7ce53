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
#include <string.h>
#include <sys/stat.h>

#include "hddscope/cli.h"
#include "hddscope/cmd.h"
#include "hddscope/datafile.h"
#include "hddscope/msg.h"
#include "hddscope/opt.h"

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
		 "\n",
	.opts = table_options,
	.outro = "\n"
		 "Exit codes: 0 ok, 1 usage, 2 setup (a directory without a readable bench.tsv).\n",
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
	struct stat st;

	memset(r, 0, sizeof(*r));
	if (stat(dir, &st) != 0) {
		hd_err("stat %s: %s", dir, strerror(errno));
		return HD_EXIT_SETUP;
	}
	if (!S_ISDIR(st.st_mode)) {
		hd_err("%s: %s (a profile is a directory)", dir, strerror(ENOTDIR));
		return HD_EXIT_SETUP;
	}
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

static const char *head_of(size_t c)
{
	return c < 3 ? heads[c] : figures[c - 3].head;
}

static void print_text(const struct row *rows, size_t n)
{
	size_t w[NCOL];

	for (size_t c = 0; c < NCOL; c++) {
		w[c] = strlen(head_of(c));
		for (size_t i = 0; i < n; i++)
			if (strlen(rows[i].cell[c]) > w[c])
				w[c] = strlen(rows[i].cell[c]);
	}
	for (size_t c = 0; c < NCOL; c++)
		printf(c < 3 ? "%-*s%s" : "%*s%s", (int)w[c], head_of(c), c + 1 < NCOL ? "  " : "\n");
	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < NCOL; c++)
			printf(c < 3 ? "%-*s%s" : "%*s%s", (int)w[c], rows[i].cell[c], c + 1 < NCOL ? "  " : "\n");
}

/* A Markdown cell: a '|' would end the cell. */
static void md_cell(const char *s)
{
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : (char[]){ *s, 0 }, stdout);
}

static void print_md(const struct row *rows, size_t n)
{
	for (size_t c = 0; c < NCOL; c++)
		printf("| %s ", head_of(c));
	printf("|\n");
	for (size_t c = 0; c < NCOL; c++)
		printf(c < 3 ? "|---" : "|---:");
	printf("|\n");
	for (size_t i = 0; i < n; i++) {
		for (size_t c = 0; c < NCOL; c++) {
			printf("| ");
			md_cell(rows[i].cell[c]);
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

static void print_csv(const struct row *rows, size_t n)
{
	for (size_t c = 0; c < NCOL; c++)
		csv_cell(head_of(c), c + 1 == NCOL);
	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < NCOL; c++)
			csv_cell(rows[i].cell[c], c + 1 == NCOL);
}

int hd_cmd_table(int argc, char **argv)
{
	struct table_opts o;
	struct row rows[64];
	size_t n = 0;
	int ex = hd_opt_parse(&table_spec, &o, sizeof(o), argc, argv);

	if (ex != HD_OPT_GO)
		return ex;
	if (optind >= argc) {
		hd_err("no profile directory given");
		return hd_usage_hint("table");
	}
	if (argc - optind > (int)(sizeof(rows) / sizeof(rows[0]))) {
		hd_err("%d profile directories: at most %zu fit one table", argc - optind, sizeof(rows) / sizeof(rows[0]));
		return hd_usage_hint("table");
	}
	for (int i = optind; i < argc; i++)
		if ((ex = read_row(argv[i], &rows[n++])))
			return ex;
	if (o.format == FMT_MD)
		print_md(rows, n);
	else if (o.format == FMT_CSV)
		print_csv(rows, n);
	else
		print_text(rows, n);
	return fflush(stdout) == 0 ? HD_EXIT_OK : HD_EXIT_RUNTIME;
}
