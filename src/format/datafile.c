/*
 * Writer and reader of the TSV data files (hddscope(1), DATA FILES).  The writer
 * keeps rows in a memory stream so that the header, which ends with whether
 * the run completed, can be written first; the file appears under its final
 * name only by rename().  The reader is strict: whatever it does not
 * understand is an error naming the file and line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/datafile.h"
#include "hddscope/fsutil.h"
#include "hddscope/util.h"

#define MAX_LINE 65536
#define MAX_DICT 255

struct hd_df_writer {
	char *path;
	char *tmp;		/* created at open, so an unwritable place fails early */
	int fd;
	char *meta;		/* accumulated "# key: value\n" lines */
	size_t metalen;
	FILE *metaf;
	char *columns;
	char *rowbuf;
	size_t rowlen;
	FILE *rows;
};

int hd_dfw_open(struct hd_df_writer **out, const char *path, const char *test)
{
	struct hd_df_writer *w = calloc(1, sizeof(*w));
	int rc;

	if (!w)
		return -ENOMEM;
	w->fd = -1;
	w->path = strdup(path);
	w->metaf = open_memstream(&w->meta, &w->metalen);
	w->rows = open_memstream(&w->rowbuf, &w->rowlen);
	if (!w->path || !w->metaf || !w->rows) {
		hd_dfw_abort(w);
		return -ENOMEM;
	}
	/* The output rule, before anything is measured: refuse what may not be replaced. */
	rc = hd_out_tmp_open(path, &w->tmp);
	if (rc < 0) {
		hd_dfw_abort(w);
		return rc;
	}
	w->fd = rc;
	fprintf(w->metaf, "# test: %s\n", test);
	*out = w;
	return 0;
}

void hd_dfw_meta(struct hd_df_writer *w, const char *key, const char *fmt, ...)
{
	va_list ap;
	char val[4096];

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	/* A value is one line: newlines would start a row. */
	for (char *p = val; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	fprintf(w->metaf, "# %s: %s\n", key, val);
}

void hd_dfw_columns(struct hd_df_writer *w, const char *names)
{
	free(w->columns);
	w->columns = strdup(names);
}

FILE *hd_dfw_rows(struct hd_df_writer *w)
{
	return w->rows;
}

void hd_dfw_abort(struct hd_df_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	if (w->tmp)
		unlink(w->tmp);
	free(w->tmp);
	if (w->metaf)
		fclose(w->metaf);
	if (w->rows)
		fclose(w->rows);
	free(w->meta);
	free(w->rowbuf);
	free(w->columns);
	free(w->path);
	free(w);
}

int hd_dfw_finish(struct hd_df_writer *w, int complete, const char **errcall)
{
	char *head = NULL;
	int rc = 0, n;

	*errcall = "write";
	if (fflush(w->metaf) || fflush(w->rows)) {
		rc = -ENOMEM;
		goto out;
	}
	n = asprintf(&head, "# hddscope-data %d\n%s# complete: %s\n# columns: %s\n", HD_DF_FORMAT,
		     w->meta, complete ? "yes" : "no", w->columns ? w->columns : "");
	if (n < 0) {
		head = NULL;
		rc = -ENOMEM;
		goto out;
	}
	rc = hd_write_full(w->fd, head, (size_t)n);
	if (!rc)
		rc = hd_write_full(w->fd, w->rowbuf, w->rowlen);
	/* Renamed, or removed: the temporary is the commit's to free either way. */
	rc = hd_out_finish(w->fd, rc, w->tmp, w->path, errcall);
	w->fd = -1;
	w->tmp = NULL;
out:
	free(head);
	hd_dfw_abort(w);
	return rc;
}

void hd_put_ms(FILE *f, int64_t ns)
{
	/*
	 * Digits by hand, not fprintf: this runs for every sample row (twice
	 * per row of the queue's request file), and a format string's parsing
	 * cost more than the rest of the row's bookkeeping.
	 */
	char buf[24], *p = buf + sizeof(buf);
	uint64_t v = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;

	for (int i = 0; i < 6; i++, v /= 10)
		*--p = (char)('0' + v % 10);
	*--p = '.';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (ns < 0)
		*--p = '-';
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

/* ---- reader ---- */

static void df_seterr(char *err, size_t errlen, const char *path, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void df_seterr(char *err, size_t errlen, const char *path, size_t line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (line)
		n = snprintf(err, errlen, "%s:%zu: ", path, line);
	else
		n = snprintf(err, errlen, "%s: ", path);
	if (n < 0 || (size_t)n >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

void hd_df_free(struct hd_df *df)
{
	if (!df)
		return;
	for (size_t i = 0; i < df->nmeta; i++) {
		free(df->keys[i]);
		free(df->values[i]);
	}
	free(df->keys);
	free(df->values);
	for (size_t i = 0; i < df->ncols; i++) {
		struct hd_df_col *c = &df->cols[i];
		free(c->name);
		free(c->num);
		free(c->str);
		for (size_t j = 0; j < c->ndict; j++)
			free(c->dict[j]);
		free(c->dict);
	}
	free(df->cols);
	free(df->path);
	free(df);
}

const char *hd_df_meta(const struct hd_df *df, const char *key)
{
	for (size_t i = 0; i < df->nmeta; i++)
		if (strcmp(df->keys[i], key) == 0)
			return df->values[i];
	return NULL;
}

const struct hd_df_col *hd_df_col(const struct hd_df *df, const char *name)
{
	for (size_t i = 0; i < df->ncols; i++)
		if (strcmp(df->cols[i].name, name) == 0)
			return &df->cols[i];
	return NULL;
}

const char *hd_df_str(const struct hd_df_col *c, size_t i)
{
	return c->dict[c->str[i]];
}

static int add_meta(struct hd_df *df, const char *key, const char *val)
{
	char **k = realloc(df->keys, (df->nmeta + 1) * sizeof(*k));
	char **v;

	if (!k)
		return -1;
	df->keys = k;
	v = realloc(df->values, (df->nmeta + 1) * sizeof(*v));
	if (!v)
		return -1;
	df->values = v;
	k[df->nmeta] = strdup(key);
	v[df->nmeta] = strdup(val);
	if (!k[df->nmeta] || !v[df->nmeta]) {
		free(k[df->nmeta]);
		free(v[df->nmeta]);
		return -1;
	}
	df->nmeta++;
	return 0;
}

static int valid_key(const char *k, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= '0' && k[i] <= '9') || k[i] == '_'))
			return 0;
	return 1;
}

static int set_columns(struct hd_df *df, char *names)
{
	char *save = NULL;

	for (char *t = strtok_r(names, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		struct hd_df_col *c = realloc(df->cols, (df->ncols + 1) * sizeof(*c));
		if (!c)
			return -1;
		df->cols = c;
		memset(&c[df->ncols], 0, sizeof(*c));
		c[df->ncols].name = strdup(t);
		if (!c[df->ncols].name)
			return -1;
		df->ncols++;
	}
	return 0;
}

static int col_grow(struct hd_df_col *c, size_t cap)
{
	if (c->type == HD_COL_NUM) {
		double *p = realloc(c->num, cap * sizeof(*p));
		if (!p)
			return -1;
		c->num = p;
	} else {
		uint8_t *p = realloc(c->str, cap);
		if (!p)
			return -1;
		c->str = p;
	}
	return 0;
}

static int dict_index(struct hd_df_col *c, const char *s)
{
	char **d;

	for (size_t i = 0; i < c->ndict; i++)
		if (strcmp(c->dict[i], s) == 0)
			return (int)i;
	if (c->ndict >= MAX_DICT)
		return -2;
	d = realloc(c->dict, (c->ndict + 1) * sizeof(*d));
	if (!d)
		return -1;
	c->dict = d;
	d[c->ndict] = strdup(s);
	if (!d[c->ndict])
		return -1;
	return (int)c->ndict++;
}

/*
 * Columns that hold quantities must hold numbers on every row, the first
 * included: by name, a unit suffix or a count.
 */
static int numeric_name(const char *n)
{
	static const char *suffix[] = { "_bytes", "_ms", "_s", "_mb_s", "_us", "_c" };
	static const char *names[] = { "iops", "mb_s", "requests", "procs", "client", "pid", "samples", "index",
				       "lba", "blocks", "bytes", "seconds" };
	size_t len = strlen(n);

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(n, names[i]) == 0)
			return 1;
	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		size_t k = strlen(suffix[i]);
		if (len > k && strcmp(n + len - k, suffix[i]) == 0)
			return 1;
	}
	return 0;
}

/* Parse one data row (fields is scratch space for ncols pointers). */
static int parse_row(struct hd_df *df, char *line, size_t lineno, size_t *cap, char **fields,
		     char *err, size_t errlen)
{
	size_t n = 0, r = df->nrows;
	char *p = line, q[64], qv[48];
	double v;

	for (;;) {
		char *tab = strchr(p, '\t');
		if (n < df->ncols)
			fields[n] = p;
		n++;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	if (n != df->ncols) {
		df_seterr(err, errlen, df->path, lineno, "%zu fields, expected %zu", n, df->ncols);
		return -1;
	}
	if (r == 0)
		for (size_t i = 0; i < n; i++)
			df->cols[i].type = numeric_name(df->cols[i].name) || hd_parse_double(fields[i], &v) == 0 ?
						   HD_COL_NUM : HD_COL_STR;
	if (r == *cap) {
		size_t ncap = *cap ? *cap * 2 : 1024;
		for (size_t i = 0; i < n; i++)
			if (col_grow(&df->cols[i], ncap)) {
				df_seterr(err, errlen, df->path, lineno, "out of memory");
				return -1;
			}
		*cap = ncap;
	}
	for (size_t i = 0; i < n; i++) {
		struct hd_df_col *c = &df->cols[i];

		if (*fields[i] == '\0') {
			df_seterr(err, errlen, df->path, lineno, "empty field in column %s",
				  hd_quote(q, sizeof(q), c->name));
			return -1;
		}
		if (c->type == HD_COL_NUM) {
			if (hd_parse_double(fields[i], &v)) {
				df_seterr(err, errlen, df->path, lineno, "column %s: not a number: '%s'",
					  hd_quote(q, sizeof(q), c->name), hd_quote(qv, sizeof(qv), fields[i]));
				return -1;
			}
			c->num[r] = v;
		} else {
			int k = dict_index(c, fields[i]);
			if (k == -2) {
				df_seterr(err, errlen, df->path, lineno, "column %s: more than %d distinct values",
					  hd_quote(q, sizeof(q), c->name), MAX_DICT);
				return -1;
			}
			if (k < 0) {
				df_seterr(err, errlen, df->path, lineno, "out of memory");
				return -1;
			}
			c->str[r] = (uint8_t)k;
		}
	}
	df->nrows++;
	return 0;
}

/* What hd_df_read carries from one line to the next. */
struct df_reader {
	struct hd_df *df;
	const char *path;
	char **fields;		/* scratch for one row's fields, once the columns are known */
	size_t rowcap;
	char *err;
	size_t errlen;
};

/*
 * The next line of the file: 1, 0 at its end, -1 with the reason in err.
 * A CRLF line is refused: gnuplot reads the file as it is, so a "\r" the
 * reader dropped would still be in the last field the charts read.
 */
static int df_next_line(struct df_reader *r, struct hd_lines *l)
{
	int rc = hd_lines_next(l);

	if (rc == 1 && l->had_cr)
		rc = -HD_ECRLF;
	if (rc >= 0)
		return rc;
	hd_lines_strerror(r->err, r->errlen, l, r->path, rc);
	return -1;
}

/* Exactly "# hddscope-data N": nothing before, between or after. */
static int df_format_line(struct df_reader *r, const char *line)
{
	uint64_t ver;

	if (strncmp(line, "# hddscope-data ", 16) != 0 || hd_parse_u64(line + 16, &ver)) {
		df_seterr(r->err, r->errlen, r->path, 1, "not an hddscope data file "
			  "(the first line must be '# hddscope-data %d')", HD_DF_FORMAT);
		return -1;
	}
	if (ver != HD_DF_FORMAT) {
		df_seterr(r->err, r->errlen, r->path, 1, "unsupported format version %llu (this build reads %d)",
			  (unsigned long long)ver, HD_DF_FORMAT);
		return -1;
	}
	return 0;
}

/* A "# key: value" line before the columns, or the "# columns:" line itself. */
static int df_header_line(struct df_reader *r, char *line, size_t n, size_t lineno)
{
	struct hd_df *df = r->df;
	char *colon, *value;
	size_t klen;

	if (strncmp(line, "# ", 2) != 0) {
		df_seterr(r->err, r->errlen, r->path, lineno, "expected a '# key: value' header line or '# columns: ...'");
		return -1;
	}
	colon = strstr(line + 2, ": ");
	klen = colon ? (size_t)(colon - (line + 2)) : 0;
	if (!colon && line[n - 1] == ':') {
		/* "# key:" with an empty value. */
		colon = line + n - 1;
		klen = (size_t)(colon - (line + 2));
	}
	if (!colon || !valid_key(line + 2, klen)) {
		df_seterr(r->err, r->errlen, r->path, lineno, "malformed header line (expected '# key: value')");
		return -1;
	}
	value = colon[1] == ' ' ? colon + 2 : colon + 1;
	line[2 + klen] = '\0';
	if (strcmp(line + 2, "columns") != 0) {
		if (add_meta(df, line + 2, value)) {
			df_seterr(r->err, r->errlen, r->path, lineno, "out of memory");
			return -1;
		}
		return 0;
	}
	if (set_columns(df, value) || df->ncols == 0) {
		df_seterr(r->err, r->errlen, r->path, lineno, "no column names");
		return -1;
	}
	r->fields = calloc(df->ncols, sizeof(*r->fields));
	if (!r->fields) {
		df_seterr(r->err, r->errlen, r->path, lineno, "out of memory");
		return -1;
	}
	return 0;
}

/* One line after the format line: a header line until the columns are known, then a row. */
static int df_line(struct df_reader *r, char *line, size_t n, size_t lineno)
{
	if (!r->fields)
		return df_header_line(r, line, n, lineno);
	if (line[0] == '#') {
		df_seterr(r->err, r->errlen, r->path, lineno, "header line after the columns line");
		return -1;
	}
	if (n == 0) {
		df_seterr(r->err, r->errlen, r->path, lineno, "empty line");
		return -1;
	}
	return parse_row(r->df, line, lineno, &r->rowcap, r->fields, r->err, r->errlen);
}

/* What the whole file must have had, once it has been read to its end. */
static int df_complete(struct df_reader *r, size_t lines)
{
	if (lines == 0)
		df_seterr(r->err, r->errlen, r->path, 0, "empty file");
	else if (!r->fields)
		df_seterr(r->err, r->errlen, r->path, lines, "truncated header: no '# columns:' line");
	else if (!hd_df_meta(r->df, "test"))
		df_seterr(r->err, r->errlen, r->path, 0, "no 'test:' header line");
	else
		return 0;
	return -1;
}

int hd_df_read(const char *path, struct hd_df **out, char *err, size_t errlen)
{
	struct df_reader r = { .path = path, .err = err, .errlen = errlen };
	struct hd_lines l = { 0 };
	FILE *f = NULL;
	int rc;

	r.df = calloc(1, sizeof(*r.df));
	if (!r.df || !(r.df->path = strdup(path))) {
		df_seterr(err, errlen, path, 0, "out of memory");
		free(r.df);
		return -1;
	}
	rc = hd_in_open(path, &f);
	if (rc) {
		hd_in_strerror(err, errlen, path, rc);
		hd_df_free(r.df);
		return -1;
	}
	if (hd_lines_init(&l, f, MAX_LINE)) {
		df_seterr(err, errlen, path, 0, "out of memory");
		rc = -1;
	}
	while (!rc && (rc = df_next_line(&r, &l)) == 1)
		rc = l.lineno == 1 ? df_format_line(&r, l.buf) : df_line(&r, l.buf, l.len, l.lineno);
	if (!rc)
		rc = df_complete(&r, l.lineno);
	fclose(f);
	hd_lines_free(&l);
	free(r.fields);
	if (rc) {
		hd_df_free(r.df);
		return -1;
	}
	*out = r.df;
	return 0;
}
