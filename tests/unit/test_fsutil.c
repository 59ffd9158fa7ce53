/*
 * The input rules of fsutil: hd_in_open refuses what is not a regular file
 * without blocking, hd_lines bounds a line before it is kept, refuses NUL
 * bytes and notes CRLF; and every reader built on them (data files,
 * summary.json, traces, models, saved SMART data) refuses the same inputs
 * with one message naming the file.  Special files are made in the scratch
 * directory, never taken from /dev.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "hddscope/datafile.h"
#include "hddscope/fsutil.h"
#include "hddscope/identity.h"
#include "hddscope/json.h"
#include "hddscope/preset.h"
#include "hddscope/sim.h"
#include "hddscope/util.h"
#include "testutil.h"

/* ---- special files ---- */

/* What a special input is made of, in the scratch directory. */
enum kind { K_FIFO, K_DIR, K_CHARDEV, K_LINK_FIFO, K_LINK_CHARDEV, K_NKINDS };
static const char *const kind_name[] = { "fifo", "dir", "zero", "link-fifo", "link-zero" };

/*
 * Make the special file of kind k under a name ending in suffix (the model
 * reader wants ".drive"); its path, or NULL where a device node cannot be
 * made (not root).
 */
static const char *make_special(enum kind k, const char *suffix)
{
	char name[64], target[64];
	const char *p;

	snprintf(name, sizeof(name), "%s%s", kind_name[k], suffix);
	p = tu_path(name);
	switch (k) {
	case K_FIFO:
		ck_assert_int_eq(mkfifo(p, 0644), 0);
		return p;
	case K_DIR:
		ck_assert_int_eq(mkdir(p, 0755), 0);
		return p;
	case K_CHARDEV:
		/* The zero device's numbers: a read would never end. */
		return mknod(p, S_IFCHR | 0644, makedev(1, 5)) == 0 ? p : NULL;
	case K_LINK_FIFO:
	case K_LINK_CHARDEV:
		snprintf(target, sizeof(target), "%s-target", kind_name[k]);
		if (k == K_LINK_FIFO)
			ck_assert_int_eq(mkfifo(tu_path(target), 0644), 0);
		else if (mknod(tu_path(target), S_IFCHR | 0644, makedev(1, 5)) != 0)
			return NULL;
		ck_assert_int_eq(symlink(tu_path(target), p), 0);
		return p;
	default:
		ck_abort_msg("kind %d", k);
		return NULL;
	}
}

START_TEST(test_in_open_refuses)
{
	enum kind k = (enum kind)_i;
	const char *p = make_special(k, "");
	FILE *f = (FILE *)1;
	char msg[256];
	int rc;

	if (!p) {
		fprintf(stderr, "skipped: %s: mknod needs root\n", kind_name[k]);
		return;
	}
	rc = hd_in_open(p, &f);
	ck_assert_int_eq(rc, k == K_DIR ? -EISDIR : -HD_ENOTREG);
	ck_assert_ptr_null(f);
	hd_in_strerror(msg, sizeof(msg), p, rc);
	ck_assert_msg(strncmp(msg, p, strlen(p)) == 0 && strstr(msg, "not a regular file"), "%s", msg);
}
END_TEST

START_TEST(test_in_open_regular)
{
	const char *p = tu_path("plain"), *l = tu_path("link");
	FILE *f;
	char msg[256];

	tu_write(p, "x\n", 0);
	ck_assert_int_eq(hd_in_open(p, &f), 0);
	ck_assert_int_eq(fgetc(f), 'x');
	fclose(f);
	/* A link to a regular file is that file. */
	ck_assert_int_eq(symlink(p, l), 0);
	ck_assert_int_eq(hd_in_open(l, &f), 0);
	fclose(f);
	ck_assert_int_eq(hd_in_open(tu_path("absent"), &f), -ENOENT);
	hd_in_strerror(msg, sizeof(msg), "/x/absent", -ENOENT);
	ck_assert_str_eq(msg, "open /x/absent: No such file or directory");
}
END_TEST

/* ---- the line reader ---- */

/* Lines of text (len bytes) read with lines of at most max: each hd_lines_next result in rcs. */
static size_t read_lines(const char *text, size_t len, size_t max, int *rcs, size_t nrcs, struct hd_lines *out)
{
	const char *p = tu_path("lines");
	FILE *f;
	size_t n = 0;

	tu_write(p, text, len);
	ck_assert_int_eq(hd_in_open(p, &f), 0);
	ck_assert_int_eq(hd_lines_init(out, f, max), 0);
	while (n < nrcs) {
		rcs[n] = hd_lines_next(out);
		if (rcs[n++] != 1)
			break;
	}
	return n;
}

START_TEST(test_lines_plain)
{
	struct hd_lines l;
	int rc[8];
	/* Empty lines are lines; the last line needs no newline. */
	size_t n = read_lines("ab\n\n\ncd", 7, 16, rc, 8, &l);

	ck_assert_uint_eq(n, 5);
	ck_assert_int_eq(rc[0], 1);
	ck_assert_int_eq(rc[3], 1);
	ck_assert_int_eq(rc[4], 0);
	ck_assert_str_eq(l.buf, "");
	ck_assert_uint_eq(l.lineno, 4);
	fclose(l.f);
	hd_lines_free(&l);

	n = read_lines("", 0, 16, rc, 8, &l);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(rc[0], 0);
	ck_assert_uint_eq(l.lineno, 0);
	fclose(l.f);
	hd_lines_free(&l);
}
END_TEST

START_TEST(test_lines_last_without_newline)
{
	struct hd_lines l;
	const char *p = tu_path("last");
	FILE *f;

	tu_write(p, "one\ntwo", 0);
	ck_assert_int_eq(hd_in_open(p, &f), 0);
	ck_assert_int_eq(hd_lines_init(&l, f, 8), 0);
	ck_assert_int_eq(hd_lines_next(&l), 1);
	ck_assert_str_eq(l.buf, "one");
	ck_assert_int_eq(hd_lines_next(&l), 1);
	ck_assert_str_eq(l.buf, "two");
	ck_assert_uint_eq(l.len, 3);
	ck_assert_uint_eq(l.lineno, 2);
	ck_assert_int_eq(hd_lines_next(&l), 0);
	ck_assert_int_eq(hd_lines_next(&l), 0);
	fclose(f);
	hd_lines_free(&l);
}
END_TEST

START_TEST(test_lines_long)
{
	struct hd_lines l;
	size_t big = 3u << 20;
	char *text = malloc(big);
	char msg[256];
	int rc[4];

	/* A file of one line without a newline, far longer than the bound. */
	memset(text, 'z', big);
	ck_assert_uint_eq(read_lines(text, big, 1000, rc, 4, &l), 1);
	ck_assert_int_eq(rc[0], -HD_ELONGLINE);
	ck_assert_uint_eq(l.lineno, 1);
	/* Nothing past the bound was read into memory: the stream stopped there. */
	ck_assert_int_le(ftell(l.f), 1001);
	hd_lines_strerror(msg, sizeof(msg), &l, "f.txt", rc[0]);
	ck_assert_str_eq(msg, "f.txt:1: line longer than 1000 bytes");
	fclose(l.f);
	hd_lines_free(&l);

	/* Exactly max bytes is a line, with or without a CR before the LF; max + 1 is not. */
	memset(text, 'a', 10);
	memcpy(text + 10, "\r\n", 2);
	ck_assert_uint_eq(read_lines(text, 12, 10, rc, 1, &l), 1);
	ck_assert_int_eq(rc[0], 1);
	ck_assert_uint_eq(l.len, 10);
	ck_assert_int_eq(l.had_cr, 1);
	fclose(l.f);
	hd_lines_free(&l);
	memset(text, 'a', 11);
	text[11] = '\n';
	ck_assert_uint_eq(read_lines(text, 12, 10, rc, 4, &l), 1);
	ck_assert_int_eq(rc[0], -HD_ELONGLINE);
	fclose(l.f);
	hd_lines_free(&l);
	memcpy(text + 10, "\rb\n", 3);
	ck_assert_uint_eq(read_lines(text, 13, 10, rc, 4, &l), 1);
	ck_assert_int_eq(rc[0], -HD_ELONGLINE);
	fclose(l.f);
	hd_lines_free(&l);
	free(text);
}
END_TEST

START_TEST(test_lines_nul)
{
	struct hd_lines l;
	char msg[256];
	int rc[4];

	ck_assert_uint_eq(read_lines("ok\nb\0d\nmore\n", 12, 64, rc, 4, &l), 2);
	ck_assert_int_eq(rc[0], 1);
	ck_assert_int_eq(rc[1], -HD_ENUL);
	ck_assert_uint_eq(l.lineno, 2);
	hd_lines_strerror(msg, sizeof(msg), &l, "f.txt", rc[1]);
	ck_assert_str_eq(msg, "f.txt:2: NUL byte in a text file");
	fclose(l.f);
	hd_lines_free(&l);
	/* A NUL on a last line without a newline too. */
	ck_assert_uint_eq(read_lines("a\0", 2, 64, rc, 4, &l), 1);
	ck_assert_int_eq(rc[0], -HD_ENUL);
	fclose(l.f);
	hd_lines_free(&l);
}
END_TEST

START_TEST(test_lines_crlf)
{
	struct hd_lines l;
	int rc[4];

	ck_assert_uint_eq(read_lines("a b\r\nc\nd\r", 0, 64, rc, 4, &l), 4);
	ck_assert_int_eq(rc[3], 0);
	fclose(l.f);
	hd_lines_free(&l);
	read_lines("a b\r\nc\n", 7, 64, rc, 1, &l);
	ck_assert_str_eq(l.buf, "a b");
	ck_assert_uint_eq(l.len, 3);
	ck_assert_int_eq(l.had_cr, 1);
	ck_assert_int_eq(hd_lines_next(&l), 1);
	ck_assert_str_eq(l.buf, "c");
	ck_assert_int_eq(l.had_cr, 0);
	fclose(l.f);
	hd_lines_free(&l);
}
END_TEST

START_TEST(test_lines_slurp)
{
	struct hd_lines l;
	char *text;
	size_t len;
	const char *p = tu_path("slurp");
	FILE *f;

	/* CRLF becomes LF, and a last line gets its newline. */
	tu_write(p, "a = 1\r\n\r\nb = 2", 0);
	ck_assert_int_eq(hd_in_open(p, &f), 0);
	ck_assert_int_eq(hd_lines_init(&l, f, 64), 0);
	ck_assert_int_eq(hd_lines_slurp(&l, 1024, &text, &len), 0);
	ck_assert_str_eq(text, "a = 1\n\nb = 2\n");
	ck_assert_uint_eq(len, 13);
	free(text);
	fclose(f);
	hd_lines_free(&l);
	/* The whole is bounded too. */
	ck_assert_int_eq(hd_in_open(p, &f), 0);
	ck_assert_int_eq(hd_lines_init(&l, f, 64), 0);
	ck_assert_int_eq(hd_lines_slurp(&l, 8, &text, &len), -EFBIG);
	ck_assert_ptr_null(text);
	fclose(f);
	hd_lines_free(&l);
}
END_TEST

/* ---- every reader refuses the same inputs ---- */

/*
 * A reader under test: 0 when it took path, else nonzero with its message
 * in err.  head is a first line it takes, so that a later line is reached.
 */
struct reader {
	const char *name, *suffix, *head;
	int (*read)(const char *path, char *err, size_t errlen);
};

/* A reader: load what path holds into a TYPE, free it where it took it. */
#define READER(name, type, load, unload)                            \
	static int name(const char *path, char *err, size_t errlen) \
	{                                                           \
		type *v;                                            \
		int rc = load(path, &v, err, errlen);               \
                                                                    \
		if (!rc)                                            \
			unload(v);                                  \
		return rc;                                          \
	}
READER(read_df, struct hd_df, hd_df_read, hd_df_free)
READER(read_json, struct hd_jv, hd_jv_load, hd_jv_free)
READER(read_trace, struct hd_trace, hd_trace_load, hd_trace_free)
READER(read_model, struct hd_sim_model, hd_sim_model_load, hd_sim_model_free)

static int read_blob(const char *path, char *err, size_t errlen)
{
	struct hd_identity id;

	hd_identity_init(&id);
	return hd_identity_from_blob_file(path, &id, err, errlen);
}

static const struct reader readers[] = {
	{ "data file", ".tsv", "# hddscope-data 1\n", read_df },
	{ "summary.json", ".json", "\n", read_json },
	{ "trace", ".trace", "# a comment\n", read_trace },
	{ "model", ".drive", "# a comment\n", read_model },
	{ "SMART blob", ".blob", "", read_blob },
};
#define NREADERS (sizeof(readers) / sizeof(readers[0]))

START_TEST(test_readers_refuse_special)
{
	const struct reader *r = &readers[_i / K_NKINDS];
	enum kind k = (enum kind)(_i % K_NKINDS);
	const char *p = make_special(k, r->suffix);
	char err[512] = "";

	if (!p) {
		fprintf(stderr, "skipped: %s as %s: mknod needs root\n", kind_name[k], r->name);
		return;
	}
	ck_assert_int_ne(r->read(p, err, sizeof(err)), 0);
	ck_assert_msg(strncmp(err, p, strlen(p)) == 0 && strstr(err, "not a regular file") && !strchr(err, '\n'),
		      "%s on %s: '%s'", r->name, kind_name[k], err);
}
END_TEST

/* A text file each reader must refuse (after its head line), and the part of the message that says why. */
static const struct {
	const char *text;
	size_t len;
	const char *why;
} bad_text[] = {
	{ "a\0b\n", 4, ":1: NUL byte in a text file" },
	{ "\0\n", 2, ":2: NUL byte in a text file" },
	{ NULL, 2u << 20, ":2: line longer than" },	/* 2 MiB of 'x', no newline */
};

START_TEST(test_readers_refuse_text)
{
	const struct reader *r = &readers[_i / 3];
	size_t c = (size_t)_i % 3, hlen = c ? strlen(r->head) : 0;
	char name[32], err[512] = "";
	const char *p;
	char *text;

	/* Saved SMART data is binary: only the special files apply. */
	if (r->read == read_blob)
		return;
	snprintf(name, sizeof(name), "bad%zu%s", c, r->suffix);
	p = tu_path(name);
	text = malloc(hlen + bad_text[c].len);
	memcpy(text, r->head, hlen);
	if (bad_text[c].text)
		memcpy(text + hlen, bad_text[c].text, bad_text[c].len);
	else
		memset(text + hlen, 'x', bad_text[c].len);
	tu_write(p, text, hlen + bad_text[c].len);
	free(text);
	ck_assert_int_ne(r->read(p, err, sizeof(err)), 0);
	ck_assert_msg(strncmp(err, p, strlen(p)) == 0 && strstr(err, bad_text[c].why) && !strchr(err, '\n'),
		      "%s: '%s'", r->name, err);
}
END_TEST

/* Data files are read by gnuplot too, which does not drop a "\r": the reader refuses CRLF. */
START_TEST(test_df_refuses_crlf)
{
	const char *p = tu_path("crlf.tsv");
	struct hd_df *df;
	char err[512];

	tu_write(p, "# hddscope-data 1\n# test: seek\n# columns: a b\n1\t2\r\n", 0);
	ck_assert_int_eq(hd_df_read(p, &df, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "crlf.tsv:4: CRLF line ending") != NULL, "%s", err);
	tu_write(p, "# hddscope-data 1\r\n", 0);
	ck_assert_int_eq(hd_df_read(p, &df, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "crlf.tsv:1: CRLF line ending") != NULL, "%s", err);
}
END_TEST

/* The others accept CRLF: no second reader of theirs could disagree. */
START_TEST(test_others_accept_crlf)
{
	const char *tr = tu_path("crlf.trace"), *js = tu_path("crlf.json"), *dr = tu_path("crlf.drive");
	char err[512], *text;
	size_t len;
	const struct hd_preset *atlas = hd_preset_find("atlas3");

	tu_write(tr, "R 0 8\r\nW 64 8 100\r\n", 0);
	ck_assert_msg(read_trace(tr, err, sizeof(err)) == 0, "%s", err);
	tu_write(js, "{\r\n \"a\": 1\r\n}\r\n", 0);
	ck_assert_msg(read_json(js, err, sizeof(err)) == 0, "%s", err);
	ck_assert_ptr_nonnull(atlas);
	text = malloc(2 * atlas->len + 1);
	len = 0;
	for (size_t i = 0; i < atlas->len; i++) {
		if (atlas->text[i] == '\n')
			text[len++] = '\r';
		text[len++] = atlas->text[i];
	}
	tu_write(dr, text, len);
	free(text);
	ck_assert_msg(read_model(dr, err, sizeof(err)) == 0, "%s", err);
}
END_TEST

/* ---- messages quoting file text ---- */

static const struct {
	const char *in, *out;
	size_t len;
} quotes[] = {
	{ "plain text", "plain text", 64 },
	{ "a\x01" "b\x1b[31m", "a\\x01b\\x1b[31m", 64 },
	{ "caf\xc3\xa9\x7f", "caf\\xc3\\xa9\\x7f", 64 },
	{ "back\\slash\ttab\r", "back\\\\slash\\x09tab\\x0d", 64 },
	{ "0123456789abcdef", "0123456...", 11 },
	{ "012345\x01", "012345\\x01", 11 },
	{ "0123456\x01", "0123456...", 11 },
	{ "0123456789", "0123456789", 11 },
	{ "", "", 8 },
};

START_TEST(test_quote)
{
	char buf[64];

	ck_assert_str_eq(hd_quote(buf, quotes[_i].len, quotes[_i].in), quotes[_i].out);
	ck_assert_uint_lt(strlen(buf), quotes[_i].len);
}
END_TEST

int main(void)
{
	return tu_main("fsutil", "inputs", tu_mkdir, tu_rmdir,
		       TU_TESTS(TU_LOOPN(test_in_open_refuses, K_NKINDS), TU_TEST(test_in_open_regular),
				TU_TEST(test_lines_plain), TU_TEST(test_lines_last_without_newline),
				TU_TEST(test_lines_long), TU_TEST(test_lines_nul), TU_TEST(test_lines_crlf),
				TU_TEST(test_lines_slurp), TU_LOOPN(test_readers_refuse_special, NREADERS * K_NKINDS),
				TU_LOOPN(test_readers_refuse_text, NREADERS * 3), TU_TEST(test_df_refuses_crlf),
				TU_TEST(test_others_accept_crlf), TU_LOOP(test_quote, quotes)));
}
